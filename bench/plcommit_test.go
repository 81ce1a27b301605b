package bench

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestPlcommitCountsEveryCommit(t *testing.T) {
	for _, lang := range []string{"sql", "lua", "js"} {
		for _, async := range []bool{false, true} {
			t.Run(lang+"/async="+onOff(async), func(t *testing.T) {
				cfg := PlcommitConfig{Dir: filepath.Join(t.TempDir(), "data"), Lang: lang, Async: async, Iterations: 20, Calls: 2, Concurrency: 2}
				res, err := RunPlcommit(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if res.Rows != 2*2*20 || len(res.CallSec) != 2*2 || res.MeanCallSec <= 0 {
					t.Fatalf("rows %d, %d call times, mean %v", res.Rows, len(res.CallSec), res.MeanCallSec)
				}
			})
		}
	}
}

func TestPlcommitRejectsUnknownLanguage(t *testing.T) {
	_, err := RunPlcommit(context.Background(), PlcommitConfig{Dir: t.TempDir(), Lang: "cobol", Iterations: 1, Calls: 1})
	if err == nil || errors.Is(err, ErrVerify) {
		t.Fatalf("err = %v, want an unknown-language error", err)
	}
}
