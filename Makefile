# Makefile -- lockstep's build: the library (static and shared), the
# `lockstep` command, the tests, the fuzz target, the demo and the benchmark.
#
#   make               library + command                     -> build/
#   make test          build and run every test
#   make demo          build and run the demo
#   make SAN=1 test    the tests under ASan + UBSan           -> build-san/
#   make WERROR=1 ...  warnings are errors (CI)
#   make fuzz          the PTX parser's libFuzzer target (clang) -> build-fuzz/
#   make bench         functional-mode speed benchmark
#   make V=1 ...       show the compiler command lines
#
# Sources are found by wildcard: a new src/<module>/x.c is built without
# touching this file; tests/unit/test_*.c and tests/e2e/test_*.c each become
# one test program linked against the static library.

SAN    ?= 0
WERROR ?= 0
V      ?= 0
ifeq ($(V),1)
Q =
else
Q = @
endif
ifeq ($(SAN),1)
BUILD  ?= build-san
OPT    ?= -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
BUILD  ?= build
OPT    ?= -O2 -g
endif

WARN = -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
       -Wimplicit-fallthrough -Wformat=2 -Wundef -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif

CPPFLAGS += -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L -DLOCKSTEP_SRC_DIR='"$(CURDIR)"'
ALL_CFLAGS = -std=c11 $(OPT) $(WARN) -fPIC -fvisibility=hidden $(CFLAGS)
LDLIBS += -lm -lpthread

LIB_SRC  = $(wildcard src/util/*.c src/ptx/*.c src/exec/*.c src/mem/*.c src/core/*.c)
CLI_SRC  = $(wildcard src/cli/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC = $(wildcard tests/unit/test_*.c tests/e2e/test_*.c)
TESTS    = $(patsubst %.c,$(BUILD)/%,$(TEST_SRC))

.PHONY: all test demo fuzz bench clean
all: $(BUILD)/liblockstep.a $(BUILD)/liblockstep.so $(BUILD)/lockstep

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/liblockstep.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/liblockstep.so: $(LIB_OBJ)
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,liblockstep.so.0 -o $@ $^ $(LDLIBS)

$(BUILD)/lockstep: $(CLI_OBJ) $(BUILD)/liblockstep.a
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/liblockstep.a tests/test.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/liblockstep.a $(LDLIBS)

test: all $(TESTS)
	@sh tests/run.sh $(BUILD)

$(BUILD)/demo: examples/demo.c $(BUILD)/liblockstep.a
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(BUILD)/liblockstep.a $(LDLIBS)

demo: all $(BUILD)/demo
	@$(BUILD)/demo examples/saxpy.ptx

# The fuzz target compiles the library sources itself, instrumented.
FUZZ_CC ?= clang
build-fuzz/ptx_fuzz: fuzz/ptx_fuzz.c $(LIB_SRC)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -o $@ $^ $(LDLIBS)
fuzz: build-fuzz/ptx_fuzz

$(BUILD)/bench_functional: bench/functional/bench_functional.c $(BUILD)/liblockstep.a
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(BUILD)/liblockstep.a $(LDLIBS)
bench: all $(BUILD)/bench_functional
	@$(BUILD)/bench_functional

clean:
	rm -rf build build-san build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TESTS:=.d)
