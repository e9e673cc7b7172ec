//go:build linux

package bench

import "syscall"

// tmpfsHasRoom reports whether tmpfsDir is a tmpfs with need bytes free.
func tmpfsHasRoom(need int64) bool {
	const tmpfsMagic = 0x01021994
	var st syscall.Statfs_t
	if syscall.Statfs(tmpfsDir, &st) != nil || st.Type != tmpfsMagic {
		return false
	}
	return int64(st.Bavail)*int64(st.Bsize) >= need
}
