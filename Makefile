# Every target is a plain command; run `make help` for the list.
GO ?= go
BIN := bin/kstreams-groups
# Packages whose tests compare with testdata/golden (only they know -update).
GOLDEN_PKGS = $$($(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/\/internal\/golden( |$$)/{print $$1}')

# make man writes the man pages into $(MANDIR)/man1: the clone's share/man
# (MANPATH=$(CURDIR)/share/man man kstreams-groups), or with PREFIX=~/.local
# where man finds them by itself.
PREFIX ?= $(CURDIR)
MANDIR ?= $(PREFIX)/share/man

# make build stamps what the release stamps (.goreleaser.yaml's ldflags),
# from git: the version (git describe, without the tag's v), the commit and
# its date in UTC. Without git (or outside a clone) nothing is stamped and
# the binary says what the Go toolchain recorded, or dev and unknown.
# Recursive (=): only a target that uses them runs git.
GIT ?= git
GIT_VERSION = $(patsubst v%,%,$(shell $(GIT) describe --tags --always --dirty 2>/dev/null))
GIT_COMMIT = $(shell $(GIT) rev-parse HEAD 2>/dev/null)
GIT_DATE = $(shell TZ=UTC $(GIT) log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
GIT_EPOCH = $(shell $(GIT) log -1 --format=%ct 2>/dev/null)
LDFLAGS = -s -w$(if $(GIT_VERSION), -X main.version=$(GIT_VERSION))$(if $(GIT_COMMIT), -X main.commit=$(GIT_COMMIT))$(if $(GIT_DATE), -X main.date=$(GIT_DATE))

.PHONY: help build man demo docs test golden golden-check bench vet tidy-check e2e bench-e2e ready graph-check topology-svg overview-svg screenshots console-measure axe mcp-clients lint snapshot
help: ## list targets
	@awk -F':.*## ' '/^[a-zA-Z0-9_.-]+:.*## /{printf "  %-15s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build the static binary into bin/ as the release does: stripped, -trimpath, version, commit and date from git
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='$(LDFLAGS)' -o $(BIN) ./cmd/kstreams-groups

man: ## write the man pages into share/man/man1 of the clone (MANPATH=share/man man kstreams-groups), or of PREFIX (PREFIX=~/.local: where man looks)
	rm -rf build/man-docs
	$(GO) run -tags gendocs ./cmd/kstreams-groups gen-docs $(if $(GIT_EPOCH),--date=$(GIT_EPOCH)) build/man-docs
	mkdir -p $(MANDIR)/man1
	cp build/man-docs/man/*.1 $(MANDIR)/man1/
	@echo "man pages in $(MANDIR)/man1: MANPATH=$(MANDIR) man kstreams-groups"

demo: build ## run --describe --topology against the built-in playground (no Kafka needed)
	./scripts/demo.sh $(BIN)

docs: ## regenerate the command reference docs/reference from the commands (TestCommandReference checks it)
	$(GO) run -tags gendocs ./cmd/kstreams-groups gen-docs --reference docs/reference

test: vet ## the test suite: vet, then go test -race ./..., then the command reference and man pages (built with -tags gendocs only)
	$(GO) test -race -count=1 -timeout 30m ./...
	$(GO) test -count=1 -tags gendocs -run 'TestCommandReference|TestManPages|TestGenDocs' ./cmd/kstreams-groups/

vet: ## go vet and gofmt
	$(GO) vet ./...
	$(GO) vet -tags gendocs ./cmd/kstreams-groups
	@out=$$(gofmt -l cmd internal e2e); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

lint: ## golangci-lint v2.15.0 (pinned) with .golangci.yml: staticcheck, errcheck, errorlint, gocognit <= 30, ...
	$(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0 run ./...

graph-check: ## render every dot golden with Graphviz and parse every Mermaid golden with Mermaid (needs graphviz, node)
	./tools/graph-check/run.sh

topology-svg: build ## regenerate docs/word-count.svg from the playground with -o dot (needs graphviz)
	./scripts/topology-svg.sh $(BIN) docs/word-count.svg

overview-svg: build ## regenerate docs/overview.svg from the playground with overview -o svg (no Graphviz needed)
	./scripts/overview-svg.sh $(BIN) docs/overview.svg

screenshots: ## regenerate docs/img/console-*.png: the console in headless Chromium, on the playground (needs chromium)
	$(GO) test ./internal/serve/web/ -run '^TestScreenshots$$' -count=1 -v -screenshots

axe: ## install axe-core (pinned in tools/axe) for the console's accessibility tests (needs node, npm)
	cd tools/axe && npm ci --no-audit --no-fund --loglevel=error

mcp-clients: ## install the MCP inspector and conformance suite on Node 22 (pinned in tools/mcp) for the mcp tests (needs npm)
	cd tools/mcp && npm ci --no-audit --no-fund --loglevel=error

console-measure: ## the console's figures in headless Chromium: first paint of 100 groups, a 10,000-node topology (needs chromium)
	$(GO) test ./internal/serve/web/ -run '^TestBrowserMeasure$$' -count=1 -v

golden: ## rewrite golden files under testdata/golden
	$(GO) test $(GOLDEN_PKGS) -count=1 -update

bench: ## Go benchmarks (formatter on 100,000 nodes, ...)
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

snapshot: ## goreleaser check + snapshot release of every target into dist/ (goreleaser v2.15.1)
	$(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1 check
	$(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1 release --snapshot --clean

tidy-check: ## fail if go.mod/go.sum are not tidy
	$(GO) mod tidy -diff

e2e: build ## real Apache Kafka 4.4.0 end-to-end suite (Maven Central jars, Java 17), on the built binary
	E2E_OURS_BIN=$(CURDIR)/$(BIN) $(GO) test -tags e2e -count=1 -v -timeout 30m ./e2e/...

bench-e2e: ## time kstreams-groups vs the Java StreamsGroupCommand on a real 4.4.0 broker (median wall, peak RSS)
	./e2e/bench.sh

ready: tidy-check lint test golden-check ## everything CI checks

golden-check: ## fail if the golden files differ from HEAD
	@git diff --exit-code -- testdata/golden >/dev/null || (echo "golden files differ from HEAD"; exit 1)
