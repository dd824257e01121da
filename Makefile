# kubectl-ctrldiag. `make demo` runs the main job on a local control plane; `make test` runs
# every test (it brings that control plane up and down itself). See README.md.

SHELL := bash
GO ?= go
BIN := bin/kubectl-ctrldiag
PKG := github.com/ctrldiag/kubectl-ctrldiag
VERSION ?= $(shell cat VERSION 2>/dev/null || git describe --tags --always --dirty 2>/dev/null || echo v0.0.0-dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_DATE ?= $(shell date -u -d @$$(git log -1 --format=%ct 2>/dev/null || date +%s) +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X $(PKG)/pkg/version.version=$(VERSION) -X $(PKG)/pkg/version.commit=$(COMMIT) \
	-X $(PKG)/pkg/version.buildDate=$(BUILD_DATE)

.PHONY: all build deps test unit e2e lint cluster cluster-down demo clean dist krew-manifest release-check

all: build

## build: the plugin, bin/kubectl-ctrldiag, the reference operator, bin/kubectl-ctrldiag-operator, and
## bin/kubectl_complete-ctrldiag(-operator), which kubectl runs for `kubectl ctrldiag [operator] <TAB>`
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-ctrldiag
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)-operator ./cmd/kubectl-ctrldiag-operator
	cp hack/completion/kubectl_complete-ctrldiag hack/completion/kubectl_complete-ctrldiag-operator bin/
	chmod +x bin/kubectl_complete-ctrldiag bin/kubectl_complete-ctrldiag-operator

## deps: the system packages the tests use (hack/test-deps.sh): installed as root, named otherwise
deps:
	hack/test-deps.sh

## test: lint, unit tests, then the e2e suite against the local control plane
test: deps lint unit e2e

## unit: the unit tests (no cluster). The release test builds the archives with hack/dist.sh, a
## build of its own (-trimpath): on 2 cold cores beside the other packages that passed go
## test's default 10 minutes a package, so the bound is 30.
unit:
	$(GO) test -count=1 -timeout 30m ./...

## fuzz: every Go fuzz target of the module (found with go test -list), FUZZTIME each (default 30s); not part of test
FUZZTIME ?= 30s
.PHONY: fuzz
fuzz:
	@set -eo pipefail; \
	targets=$$($(GO) test -list '^Fuzz' ./... | awk '/^Fuzz/ { fns[n++] = $$1; next } /^ok/ { for (i = 0; i < n; i++) print $$2 "," fns[i] } { n = /^ok/ ? 0 : n }'); \
	if [ -z "$$targets" ]; then echo "no fuzz targets found"; exit 1; fi; \
	for t in $$targets; do \
		pkg=$${t%,*}; fn=$${t#*,}; \
		echo "== $$fn in $$pkg for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## e2e: the e2e suite; starts the local cluster if needed and stops it again if it started it
e2e: deps
	hack/e2e.sh

## lint: gofmt and go vet (including the e2e build tag)
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags e2e ./test/...

## cluster: build (once) and start the local control plane; prints how to use it
cluster:
	hack/cluster/up.sh

## cluster-down: stop the local control plane and remove its state and network namespace
cluster-down:
	hack/cluster/down.sh

## demo: the main job on the embedded default: local cluster + kubectl ctrldiag against it
demo: build
	hack/demo.sh

## dist: reproducible release archives (linux/darwin/windows x amd64/arm64) and checksums in dist/
dist:
	hack/dist.sh

## krew-manifest: render plugins/ctrldiag.yaml (the krew custom index) from krew-manifest.yaml and dist/
krew-manifest: dist
	hack/krew-manifest.sh

## release-check: dist/ is exactly what the committed krew manifest describes
release-check: krew-manifest
	KREW_RELEASE_CHECK=1 $(GO) test -count=1 ./hack/krewmanifest
	git diff --exit-code -- plugins/ctrldiag.yaml

clean:
	rm -rf bin dist

## clean-cache: remove the pinned control plane, Thanos and third-party controllers the tests built (hack/cache-dir.sh), kept across checkouts
.PHONY: clean-cache
clean-cache:
	rm -rf "$$(hack/cache-dir.sh)"

## bench: Go benchmarks (-benchmem), peak RSS, start-up and, with a local cluster up, reading by hand (kubectl get --raw | grep)
## as a comparison, and the e2e scale measurements; medians and same-run ratios go into BENCHMARKS.md
.PHONY: bench
bench:
	$(GO) run ./hack/benchratio -count $(or $(BENCH_COUNT),6) -o BENCHMARKS.md $(if $(BENCH_ONLY),-only $(BENCH_ONLY))
