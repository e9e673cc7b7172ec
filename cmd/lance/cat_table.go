package main

import (
	"strings"
	"unicode/utf8"
)

// defaultTableWidth is how many characters a table cell shows before it
// is cut (lance cat --max-width).
const defaultTableWidth = 48

// tableMarker ends a cut table cell.
const tableMarker = "…"

// tableCell is s as a table shows it: tabs, newlines and carriage
// returns written as \t, \n and \r (a row stays one aligned line), then
// cut to limit characters, the last one the marker (limit 0: whole).
func tableCell(s string, limit int) string {
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
	}
	if limit <= 0 || utf8.RuneCountInString(s) <= limit {
		return s
	}
	if limit == 1 {
		return tableMarker
	}
	n := 0
	for i := range s {
		if n == limit-1 {
			return s[:i] + tableMarker
		}
		n++
	}
	return s
}
