# Makefile -- lockstep's build: the library (static and shared), the
# `lockstep` command, the tests, the fuzz target, the demo and the benchmark.
#
#   make               library + command                     -> build/
#   make test          build and run every test
#   make all-tests     build every test program without running them
#   make demo          build and run the demo
#   make SAN=1 test    the tests under ASan + UBSan           -> build-san/
#   make TSAN=1 tsan   the threaded-engine tests under ThreadSanitizer -> build-tsan/
#   make DEBUG=1 test  the tests with invariant checks (LS_ASSERT) -> build-debug/
#   make WERROR=1 ...  warnings are errors (CI)
#   make fuzz          libFuzzer targets: PTX parser, fat-binary reader, litmus parser -> build-fuzz/
#   make bench         simulation speed on five kernels, functional and timing mode
#   make V=1 ...       show the compiler command lines
#
# Sources are found by wildcard: a new src/<module>/x.c is built without
# touching this file; tests/unit/test_*.c and tests/e2e/test_*.c each become
# one test program linked against the static library.

SAN    ?= 0
TSAN   ?= 0
WERROR ?= 0
V      ?= 0
ifeq ($(V),1)
Q =
else
Q = @
endif
DEBUG  ?= 0
ifeq ($(SAN),1)
BUILD  ?= build-san
OPT    ?= -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(TSAN),1)
BUILD  ?= build-tsan
OPT    ?= -O1 -g -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(DEBUG),1)
BUILD  ?= build-debug
OPT    ?= -O1 -g
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
# Invariant checks (src/util/check.h) in debug builds and both sanitizer builds
ifneq ($(filter 1,$(DEBUG) $(SAN) $(TSAN)),)
CPPFLAGS += -DLOCKSTEP_DEBUG
endif
ALL_CFLAGS = -std=c11 $(OPT) $(WARN) -fPIC -fvisibility=hidden $(CFLAGS)
LDLIBS += -lm -lpthread

LIB_SRC  = $(wildcard src/util/*.c src/ptx/*.c src/litmus/*.c src/exec/*.c src/mem/*.c src/config/*.c src/timing/*.c src/rel/*.c src/core/*.c)
CLI_SRC  = $(wildcard src/cli/*.c)
# the campaign runner (src/campaign): the lockstep command's, not the
# library's, so only the command (and its tests) link SQLite
CAMPAIGN_SRC = $(wildcard src/campaign/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
CAMPAIGN_OBJ = $(CAMPAIGN_SRC:%.c=$(BUILD)/obj/%.o)
CAMPAIGN_LIBS = -lsqlite3
TEST_SRC = $(wildcard tests/unit/test_*.c tests/e2e/test_*.c)
TESTS    = $(patsubst %.c,$(BUILD)/%,$(TEST_SRC))
CUDART_TEST_SRC = $(wildcard tests/cudart/test_*.c)
CUDART_TESTS    = $(patsubst %.c,$(BUILD)/%,$(CUDART_TEST_SRC))

.PHONY: all all-tests test tsan demo fuzz bench clean
all: $(BUILD)/liblockstep.a $(BUILD)/liblockstep.so $(BUILD)/lockstep $(BUILD)/lib/libcudart.so.13

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# cuda.c embeds place.h and place.c (.incbin) in the programs it writes
$(BUILD)/obj/src/litmus/cuda.o: src/litmus/place.h src/litmus/place.c

$(BUILD)/liblockstep.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/liblockstep.so: $(LIB_OBJ)
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,liblockstep.so.0 -o $@ $^ $(LDLIBS)

$(BUILD)/lockstep: $(CLI_OBJ) $(CAMPAIGN_OBJ) $(BUILD)/liblockstep.a
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(CAMPAIGN_LIBS) $(LDLIBS)

# The CUDA runtime replacement: libcudart.so.13 with nvcc 13's symbol
# version, holding liblockstep inside it.  The zstd decompressor for the PTX
# nvcc compresses by default is the system's libzstd.so.1, loaded at run
# time (src/cudart/fatbin.c), so the build needs no -dev package.
CUDART_SRC = $(wildcard src/cudart/*.c)
CUDART_OBJ = $(CUDART_SRC:%.c=$(BUILD)/obj/%.o)
CUDART_LIBS = -ldl
$(BUILD)/lib/libcudart.so.13: $(CUDART_OBJ) $(LIB_OBJ) src/cudart/exports.map
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcudart.so.13 \
	    -Wl,--version-script=src/cudart/exports.map -o $@ $(CUDART_OBJ) $(LIB_OBJ) $(CUDART_LIBS) $(LDLIBS)
	@ln -sf libcudart.so.13 $(BUILD)/lib/libcudart.so
	@ln -sf libcudart.so.13 $(BUILD)/lib/libcuda.so.1
	@ln -sf libcudart.so.13 $(BUILD)/lib/libcuda.so

$(BUILD)/tests/%: tests/%.c $(BUILD)/liblockstep.a tests/test.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/liblockstep.a $(LDLIBS) $(TEST_LDFLAGS)

# the campaign runner's tests link it (and SQLite); test_inject_job links
# the pieces of `lockstep inject` it checks
$(BUILD)/tests/unit/test_campaign: tests/unit/test_campaign.c $(CAMPAIGN_OBJ) $(BUILD)/liblockstep.a tests/test.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -MMD -MP -o $@ $< $(CAMPAIGN_OBJ) $(BUILD)/liblockstep.a $(CAMPAIGN_LIBS) $(LDLIBS)
INJECT_TEST_OBJ = $(BUILD)/obj/src/cli/inject_job.o $(BUILD)/obj/src/cli/runrec.o
$(BUILD)/tests/unit/test_inject_job: tests/unit/test_inject_job.c $(INJECT_TEST_OBJ) $(CAMPAIGN_OBJ) $(BUILD)/liblockstep.a tests/test.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -MMD -MP -o $@ $< $(INJECT_TEST_OBJ) $(CAMPAIGN_OBJ) $(BUILD)/liblockstep.a $(CAMPAIGN_LIBS) $(LDLIBS)

# the allocation-failure sweep counts (and fails) the library's allocations
$(BUILD)/tests/e2e/test_alloc_fail: TEST_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup

# tests of the CUDA runtime replacement link its objects too
$(BUILD)/tests/cudart/%: tests/cudart/%.c $(CUDART_OBJ) $(BUILD)/liblockstep.a tests/test.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -MMD -MP \
	    -o $@ $< $(CUDART_OBJ) $(BUILD)/liblockstep.a $(CUDART_LIBS) $(LDLIBS)

# In the sanitizer build, CUDA programs (not instrumented themselves) load an
# ASan-instrumented libcudart.so.13: the ASan runtime must be preloaded.
ifeq ($(SAN),1)
export LOCKSTEP_RUN_ENV = LD_PRELOAD=$(shell $(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
endif

all-tests: all $(TESTS) $(CUDART_TESTS) $(BUILD)/demo $(BUILD)/bench_kernels

test: all-tests
	@sh tests/run.sh $(BUILD)

# The tests whose kernels run on several host threads, under ThreadSanitizer
# (make TSAN=1 tsan): any state two components of a window share shows up.
TSAN_TESTS = $(BUILD)/tests/e2e/test_engine_threads $(BUILD)/tests/e2e/test_timing \
             $(BUILD)/tests/unit/test_pfor $(BUILD)/tests/e2e/test_mem_seam \
             $(BUILD)/tests/e2e/test_gpudet $(BUILD)/tests/e2e/test_dab \
             $(BUILD)/tests/e2e/test_fault $(BUILD)/tests/e2e/test_ace \
             $(BUILD)/tests/e2e/test_dmr
tsan: $(TSAN_TESTS)
	@for t in $(TSAN_TESTS); do \
	    if TSAN_OPTIONS="halt_on_error=1" $$t >$$t.log 2>&1; then \
	        echo "PASS $$t: $$(tail -n 1 $$t.log)"; \
	    else echo "FAIL $$t"; tail -n 40 $$t.log; exit 1; fi; done

$(BUILD)/demo: examples/demo.c $(BUILD)/liblockstep.a
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(BUILD)/liblockstep.a $(LDLIBS)

NVCC ?= nvcc
HAVE_NVCC := $(shell command -v $(NVCC) >/dev/null 2>&1 && echo 1)

$(BUILD)/demo_cuda: examples/demo.cu
	$(Q)$(NVCC) -cudart shared -lineinfo -o $@ $<

# The demo: an ordinary CUDA program built with nvcc, run on the simulator.
# Without nvcc, the C API demo runs instead.
ifeq ($(HAVE_NVCC),1)
demo: all $(BUILD)/demo_cuda
	@echo "== examples/demo.cu, built with nvcc -cudart shared, running on lockstep:"
	@$(BUILD)/lockstep run -- $(BUILD)/demo_cuda
else
demo: all $(BUILD)/demo
	@echo "== nvcc not found: running the C API demo (examples/demo.c) instead"
	@$(BUILD)/demo examples/saxpy.ptx
endif

# The fuzz target compiles the library sources itself, instrumented.
FUZZ_CC ?= clang
FUZZ_FLAGS = $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
build-fuzz/ptx_fuzz: fuzz/ptx_fuzz.c $(LIB_SRC)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(LDLIBS)
build-fuzz/fatbin_fuzz: fuzz/fatbin_fuzz.c src/cudart/fatbin.c
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -ldl $(LDLIBS)
build-fuzz/litmus_fuzz: fuzz/litmus_fuzz.c src/litmus/parse.c src/litmus/litmus.c src/util/strbuf.c
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(LDLIBS)
fuzz: build-fuzz/ptx_fuzz build-fuzz/fatbin_fuzz build-fuzz/litmus_fuzz

$(BUILD)/bench_kernels: bench/speed/bench_kernels.c $(BUILD)/liblockstep.a
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(BUILD)/liblockstep.a $(LDLIBS)
bench: all $(BUILD)/bench_kernels
	@$(BUILD)/bench_kernels

clean:
	rm -rf build build-san build-tsan build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(CAMPAIGN_OBJ:.o=.d) $(CUDART_OBJ:.o=.d) $(TESTS:=.d) $(CUDART_TESTS:=.d)
