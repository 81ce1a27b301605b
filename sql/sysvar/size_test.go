package sysvar

import (
	"errors"
	"testing"

	"github.com/plrun/plrun/sqlerr"
)

func TestParseSize(t *testing.T) {
	for text, want := range map[string]int64{
		"0": 0, "134217728": 134217728, "1k": 1024, "1K": 1024, "512M": 512 << 20, "512m": 512 << 20,
		"2G": 2 << 30, "3t": 3 << 40, " 16M ": 16 << 20, "-2K": -2048, "8388607T": 8388607 << 40,
	} {
		if got, err := ParseSize(text); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	for _, text := range []string{"", "M", "1.5G", "12X", "1KB", "+1M", "0x10", "8388608T", "9223372036854775808", "1 M"} {
		if got, err := ParseSize(text); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", text, got)
		}
	}
}

// OptionText expands a suffix only on an integer variable's value; other
// text reaches Literal and Normalize as it was given.
func TestOptionText(t *testing.T) {
	def := func(name string) *Def {
		d, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct{ name, text, want string }{
		{"plrun_cache_size", "512M", "536870912"},
		{"max_allowed_packet", "16m", "16777216"},
		{"plrun_checkpoint_log_size", "134217728", "134217728"},
		{"plrun_workers", "12X", "12X"}, // not a size: Normalize says 1232
		{"hotspot", "1K", "1K"},         // a switch: no suffix
		{"long_query_time", "2K", "2K"}, // a float takes none in mysqld either
		{"secure_file_priv", "/tmp/5M", "/tmp/5M"},
	} {
		got, err := OptionText(def(c.name), c.text)
		if err != nil || got != c.want {
			t.Errorf("OptionText(%s, %q) = %q, %v; want %q", c.name, c.text, got, err, c.want)
		}
	}
	_, err := OptionText(def("plrun_cache_size"), "9000000000000T")
	var e *sqlerr.Error
	if !errors.As(err, &e) || e.Code != sqlerr.ErWrongValueForVar {
		t.Errorf("an overflowing size: %v, want error 1231", err)
	}
}
