package procs_test

import (
	"math"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

func TestConvertParam(t *testing.T) {
	tests := []struct {
		typ     string
		in      any
		want    any
		errCode uint16
		errMsg  string
	}{
		{"INT", nil, nil, 0, ""},
		{"INT", "42", int64(42), 0, ""},
		{"INT", " -7 ", int64(-7), 0, ""},
		{"INT", 3, int64(3), 0, ""},
		{"INT", 2.5, int64(3), 0, ""},
		{"INT", -2.5, int64(-3), 0, ""},
		{"INT", "12.5", int64(13), 0, ""},
		{"INT", true, int64(1), 0, ""},
		{"INT", "abc", nil, 1366, "Incorrect integer value: 'abc' for column 'a' at row 1"},
		{"INT", "", nil, 1366, "Incorrect integer value: '' for column 'a' at row 1"},
		{"INT", math.NaN(), nil, 1366, ""},
		{"INT", int64(1) << 31, nil, 1264, "Out of range value for column 'a' at row 1"},
		{"INT", -(int64(1) << 31), -(int64(1) << 31), 0, ""},
		{"TINYINT", 128, nil, 1264, ""},
		{"TINYINT UNSIGNED", 255, int64(255), 0, ""},
		{"INT UNSIGNED", -1, nil, 1264, ""},
		{"BIGINT", "9223372036854775807", int64(math.MaxInt64), 0, ""},
		{"BIGINT", "9223372036854775808", nil, 1264, ""},
		{"BIGINT UNSIGNED", "18446744073709551615", uint64(math.MaxUint64), 0, ""},
		{"BIGINT UNSIGNED", uint64(math.MaxUint64), uint64(math.MaxUint64), 0, ""},
		{"BIGINT", uint64(math.MaxUint64), nil, 1264, ""},
		{"DECIMAL(12,2)", "10", "10.00", 0, ""},
		{"DECIMAL(12,2)", "10.005", "10.01", 0, ""},
		{"DECIMAL(12,2)", "-10.005", "-10.01", 0, ""},
		{"DECIMAL(12,2)", "-0.001", "0.00", 0, ""},
		{"DECIMAL(12,2)", 25.5, "25.50", 0, ""},
		{"DECIMAL(12,2)", int64(7), "7.00", 0, ""},
		{"DECIMAL(12,2)", "1e3", "1000.00", 0, ""},
		{"DECIMAL(12,2)", "9999999999.99", "9999999999.99", 0, ""},
		{"DECIMAL(12,2)", "99999999999.99", nil, 1264, ""},
		{"DECIMAL(12,2)", "9999999999.995", nil, 1264, ""},
		{"DECIMAL(12,2)", "12,5", nil, 1366, "Incorrect decimal value: '12,5' for column 'a' at row 1"},
		{"DECIMAL(12,2)", "NaN", nil, 1366, ""},
		{"DECIMAL", "12.5", "13", 0, ""},
		{"NUMERIC(5,3) UNSIGNED", "-1", nil, 1264, ""},
		{"DOUBLE", "2.5", 2.5, 0, ""},
		{"DOUBLE", int64(2), 2.0, 0, ""},
		{"FLOAT", "x", nil, 1366, ""},
		{"VARCHAR(3)", "abc", "abc", 0, ""},
		{"VARCHAR(3)", "日本語", "日本語", 0, ""},
		{"VARCHAR(3)", "abcd", nil, 1406, "Data too long for column 'a' at row 1"},
		{"VARCHAR(20)", int64(12), "12", 0, ""},
		{"TEXT", []byte("bytes"), "bytes", 0, ""},
		{"DATETIME", "2026-01-01 00:00:00", "2026-01-01 00:00:00", 0, ""},
	}
	for _, tt := range tests {
		got, err := procs.ConvertParam(procs.Param{Name: "a", Type: tt.typ}, tt.in)
		if tt.errCode != 0 {
			e, ok := sqlerr.As(err)
			if !ok || e.Code != tt.errCode || (tt.errMsg != "" && e.Message != tt.errMsg) {
				t.Errorf("%s %#v: err = %v, want %d %q", tt.typ, tt.in, err, tt.errCode, tt.errMsg)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s %#v = %#v, %v; want %#v", tt.typ, tt.in, got, err, tt.want)
		}
	}
}
