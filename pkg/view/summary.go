package view

// Summary counts what a report read and found.
type Summary struct {
	Targets  int    `json:"targets"`
	Read     int    `json:"read"`
	Critical int    `json:"critical"`
	Warning  int    `json:"warning"`
	Info     int    `json:"info"`
	Verdict  string `json:"verdict"`
}
