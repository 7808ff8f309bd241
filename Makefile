# Every target is a plain command; run `make help` for the list.
GO ?= go
BIN := bin/kstreams-groups
# Packages whose tests compare with testdata/golden (only they know -update).
GOLDEN_PKGS = $$($(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/\/internal\/golden( |$$)/{print $$1}')

.PHONY: help build demo test golden bench vet tidy-check e2e ready
help: ## list targets
	@awk -F':.*## ' '/^[a-z-]+:.*## /{printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build the static binary into bin/
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/kstreams-groups

demo: build ## run --describe --topology against the built-in playground (no Kafka needed)
	./scripts/demo.sh $(BIN)

test: vet ## the test suite: vet, then go test -race ./...
	$(GO) test -race -count=1 ./...

vet: ## go vet and gofmt
	$(GO) vet ./...
	@out=$$(gofmt -l cmd internal e2e); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

golden: ## rewrite golden files under testdata/golden
	$(GO) test $(GOLDEN_PKGS) -count=1 -update

bench: ## Go benchmarks (formatter on 100,000 nodes, ...)
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

tidy-check: ## fail if go.mod/go.sum are not tidy
	$(GO) mod tidy -diff

e2e: build ## real Apache Kafka 4.4.0 end-to-end suite (Maven Central jars, Java 17)
	$(GO) test -tags e2e -count=1 -timeout 30m ./e2e/...

ready: tidy-check test golden-check ## everything CI checks

golden-check:
	@git diff --exit-code -- testdata/golden >/dev/null || (echo "golden files differ from HEAD"; exit 1)
