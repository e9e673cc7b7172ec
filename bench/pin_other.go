//go:build !unix

package bench

// pinFiles reads paths through once (see warmPageCache): this platform's
// benchmark does not lock files in memory, so pinned is false.
func pinFiles(paths ...string) (unpin func(), pinned bool, err error) {
	return func() {}, false, warmFiles(paths...)
}
