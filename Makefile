# benchlog: `make` builds libbenchlog.a and benchlog; `make test` runs the cmocka tests;
# `make check` runs them under ASan+UBSan; `make demo` runs the main job on a default.
# Every source file under the stage folders is part of the library: adding a parser,
# an engine or a chart kind needs no change here.

BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
CORPUS  ?= $(abspath ../shared/corpus)

# One line: scripts/fuzz.sh reads this line as its list of libraries.
PKGS     := pangocairo cairo xlsxwriter sqlite3 libpq jansson libpcre2-8 nettle liburing libxxhash libisal minizip zlib
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WFLAGS   := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -MMD -MP
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -laio -lm -lpthread
SAN      ?=

LIB_DIRS := core parsers runner compare charts report
LIB_SRC  := $(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TSUP_SRC := $(sort $(wildcard tests/support/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TSUP_OBJ := $(TSUP_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libbenchlog.a
BIN      := $(BUILD)/benchlog
DEPS_BUILD := $(BUILD)/.deps-build
DEPS_DEMO  := $(BUILD)/.deps-demo
DEPS_TEST  := $(BUILD)/.deps-test

ALL_CFLAGS = $(WFLAGS) $(CFLAGS) $(SAN) $(PKG_CFLAGS) -I.

# Test objects are intermediate files; keep them for incremental builds.
.SECONDARY:

.PHONY: all deps test check valgrind demo install clean format fuzz fuzz-smoke
all: $(BIN) $(LIB)

deps: $(DEPS_TEST)

# Dependencies are checked once per build folder and package set (build, demo, test), each set
# with its own stamp: a target that needs more than an earlier one installed checks again.
# The bigger sets wait for the build set so that two apt-get never run at once under -j.
$(BUILD)/.deps-%: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh $*
	@touch $@
$(DEPS_DEMO) $(DEPS_TEST): | $(DEPS_BUILD)

$(BUILD)/%.o: %.c | $(DEPS_BUILD)
	@mkdir -p $(dir $@)
	@echo "  CC  $<"
	@$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(SAN) -o $@ $(CLI_OBJ) $(LIB) $(PKG_LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TSUP_OBJ) $(LIB)
	$(CC) $(SAN) -o $@ $< $(TSUP_OBJ) $(LIB) $(PKG_LIBS) -lcmocka

# Test objects need the test packages (cmocka) before they compile.
$(TESTS:=.o) $(TSUP_OBJ): | $(DEPS_TEST)

test: $(DEPS_TEST) $(BIN) $(TESTS)
	@BENCHLOG_BIN=$(abspath $(BIN)) BENCHLOG_CORPUS=$(CORPUS) sh scripts/run-tests.sh $(TESTS)

# -fsanitize=undefined leaves out float-to-integer overflow (runtime=1e12 was one); added
# when the compiler takes it (gcc 12 and clang do), probed rather than assumed.
FLOAT_CAST = $(shell echo 'int main(void){return 0;}' | $(CC) -fsanitize=float-cast-overflow \
                -x c - -o /dev/null 2>/dev/null && echo ,float-cast-overflow)

check:
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0 \
	$(MAKE) BUILD=build-san OPT=-O1 SAN="-fsanitize=address,undefined$(FLOAT_CAST) -fno-omit-frame-pointer -fno-sanitize-recover=all" test

valgrind: $(DEPS_TEST) $(BIN) $(TESTS)
	@BENCHLOG_BIN=$(abspath $(BIN)) BENCHLOG_CORPUS=$(CORPUS) BENCHLOG_VALGRIND=1 sh scripts/run-tests.sh $(TESTS)

demo: $(DEPS_DEMO) $(BIN)
	@sh scripts/demo.sh $(BIN)

# The completion scripts are made by the program itself (benchlog completion bash|zsh).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/benchlog
	install -m 644 docs/benchlog.1 $(DESTDIR)$(PREFIX)/share/man/man1/benchlog.1
	$(BIN) completion bash > $(DESTDIR)$(BASHCOMPDIR)/benchlog
	$(BIN) completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_benchlog
	chmod 644 $(DESTDIR)$(BASHCOMPDIR)/benchlog $(DESTDIR)$(ZSHCOMPDIR)/_benchlog

fuzz: $(DEPS_TEST)
	@BENCHLOG_CORPUS=$(CORPUS) sh scripts/fuzz.sh $(or $(FUZZ_SECONDS),600)

# 24 targets × 33 s: the 800 s CI gave 20 targets × 40 s before the output writers' four.
fuzz-smoke: $(DEPS_TEST)
	@BENCHLOG_CORPUS=$(CORPUS) FUZZ_SEED=$(or $(FUZZ_SEED),$(shell date -u +%Y%m%d)) sh scripts/fuzz.sh $(or $(FUZZ_SECONDS),33)

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) $(TSUP_SRC) $(wildcard bench/*.c tests/fuzz/*.c */*.h tests/*/*.h)

clean:
	rm -rf build build-*

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TSUP_OBJ:.o=.d) $(TESTS:=.d)
