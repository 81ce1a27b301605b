# plrun's developer commands. Everything goes through the go tool with
# GOFLAGS=-mod=mod, so a fresh clone builds without a vendored go.sum fix-up.

GO         ?= go
export GOFLAGS := -mod=mod

BIN        := bin/plrun
DATA       ?= ./plrun-data
# Packages with pipeline benchmarks (commit pipeline, lock manager, VM pools).
BENCH_PKGS ?= ./asynccommit/ ./lockmgr/ ./runtime/...
BENCHTIME  ?= 1s
FUZZTIME   ?= 30s
# Soak: the randomized, concurrent and crash tests, many times over, under -race.
SOAK_RUN   ?= Crash|Kill|Bank|Random|Stress|Concurrent|Soak|Hotrow|Plcommit|Corruption|Shutdown|Truncate
SOAK_COUNT ?= 20

.PHONY: all build test seeds bench charts run fuzz soak clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/plrun

# The sqllogictest corpus (internal/slt) runs without -race: it checks SQL
# results over ~10k records, not concurrency, and -race makes it 5x slower.
# So do the four longest table-store tests (100k-300k rows each; they
# skip themselves under -race): their concurrency is covered by the store
# crash tests, which run with it.
test:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -timeout 15m $$($(GO) list ./... | grep -v /internal/slt$$)
	$(GO) test -timeout 10m ./internal/slt
	$(GO) test -timeout 10m -run '^(TestCreateIndexStreamed|TestCrashCreateIndex|TestEvictionStress|TestAggregateStreams)$$' ./internal/enginetest

# The seeds' own scripts as their documents run them, against `plrun serve`
# (seed 000: ob_elr.py, ELR off then on, k checked). Needs the mysql client
# and python3-pymysql, which .ci/run installs.
seeds:
	bash scripts/seed000.sh

# Pipeline benchmarks (compare runs with benchstat), then seed 000's hot
# row with ELR off and on in one run.
bench: build
	$(GO) test -run XXX -bench . -benchtime $(BENCHTIME) -benchmem $(BENCH_PKGS)
	$(BIN) bench hotrow --elr both

# BENCHMARKS.md's charts, by the commands written beside them (about 2.5
# minutes; the inventory sweep is the seed's 9 points x hotspot off/on).
charts: build
	$(BIN) bench hotrow --threads 50 --time 10s --warmup 2s --report-interval 500ms --chart bench/charts/hotrow.svg
	$(BIN) bench hotrow --threads 50 --sync-delay 30ms --time 10s --warmup 2s --report-interval 500ms --chart bench/charts/hotrow-30ms.svg
	$(BIN) bench inventory --chart bench/charts/inventory.svg
	$(BIN) bench plcommit --lang lua --async both --iterations 1000 --time 5s --warmup 1s --report-interval 500ms --chart bench/charts/plcommit.svg
	$(BIN) bench largetrx --size-mb 64 --threads 8 --warmup 500ms --report-interval 100ms --chart bench/charts/largetrx.svg

run: build
	$(BIN) --data $(DATA)

# Every Fuzz target of every package, FUZZTIME each (scripts/fuzz.sh: a
# failing input fails it; a bare fuzzing-deadline error is retried once).
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

soak: build
	$(GO) test -race -timeout 120m -count $(SOAK_COUNT) -run '$(SOAK_RUN)' ./...
	$(BIN) bench hotrow --threads 50 --updates 20000 --elr both --yes
	$(BIN) bench plcommit --lang both --async both --iterations 1000 --calls 5 --concurrency 16 --yes

# Removes build output only; the REPL's data folder ($(DATA)) is yours to keep.
clean:
	rm -rf bin
	find . -name '*.test' -o -name '*.prof' | xargs rm -f
