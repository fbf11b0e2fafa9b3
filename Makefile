# SPDX-License-Identifier: GPL-2.0
#
# One build for hwxdp: BPF objects, the library, the hwxdp command and tests.
#   make            build everything
#   make test       install what is missing, build, run every test
#   make run        install what is missing, build, run the lab (root)
#   make V=1        show the commands;  make SAN=1  build with ASan/UBSan

V     ?= 0
SAN   ?= 0
BUILD ?= build

Q := $(if $(filter 1,$(V)),,@)
msg = $(if $(filter 1,$(V)),,@printf '  %-8s %s\n' '$(1)' '$(2)';)

CC    ?= cc
CLANG ?= clang
PKG_CONFIG ?= pkg-config

MULTIARCH := $(shell $(CC) -dumpmachine 2>/dev/null)

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers -fvisibility=hidden -MMD -MP \
	  -fPIC \
	  -I. -Iinclude -Iprogs/include $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif
LDLIBS := $(shell $(PKG_CONFIG) --libs libbpf libelf zlib libcrypto libpcap z3 2>/dev/null || echo -lbpf -lelf -lz -lcrypto -lpcap -lz3)
TEST_LDLIBS := $(shell $(PKG_CONFIG) --libs criterion 2>/dev/null || echo -lcriterion)

BPF_CFLAGS := -g -O2 -target bpf -Wall -Werror -Iprogs/include -Iinclude \
	      $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH))

BPF_SRCS  := $(wildcard progs/*.bpf.c)
BPF_OBJS  := $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(BPF_SRCS))
# fwd as clang's alu32 code has it (-mcpu=v3, newer clang's default): the
# fwd suite runs on it too.
BPF_OBJS  += $(BUILD)/progs/fwd_alu32.bpf.o $(BUILD)/progs/fwd_mark1.bpf.o $(BUILD)/progs/fwd_mark2.bpf.o \
	     $(BUILD)/progs/fwd_flows32k.bpf.o
# Objects the loader's tests read: modern and legacy (struct bpf_map_def) ones.
CORPUS_OBJS := $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(wildcard tests/loader/corpus/*.bpf.c))
# Objects in the manner of older toolchains and loaders (tests/loader/older).
CORPUS_OBJS += $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(wildcard tests/loader/older/*.bpf.c))
# XDP programs in the styles of public code, for tests/corpus.
CORPUS_OBJS += $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(wildcard tests/corpus/*.bpf.c))
# The same built for BPF v3 (alu32 and jmp32), the default of newer clang,
# and at -O1, whose code clang lays out otherwise: build/tests/corpus-NAME.
CORPUS_BUILDS := v3:-mcpu=v3 O1:-O1
# Corpus programs built as their projects build them, ahead of a build's own
# flags: CORPUS_CFLAGS.NAME for tests/corpus/NAME.bpf.c.
CORPUS_CFLAGS.nodebug_v1 := -g0 -mcpu=v1
CORPUS_CFLAGS.v2_subprogs := -mcpu=v2 -fno-unroll-loops
CORPUS_CFLAGS.atomics_v3 := -mcpu=v3
# tests/prove/bpf/unit_atomics.bpf.c: the atomics that fetch are v3's
CORPUS_CFLAGS.unit_atomics := -mcpu=v3
CORPUS_CFLAGS.legacy_nobtf := -g0
CORPUS_CFLAGS.oldclang_xdp_prog := -g0
CORPUS_OBJS += $(foreach b,$(CORPUS_BUILDS),$(patsubst tests/corpus/%.bpf.c,\
	       $(BUILD)/tests/corpus-$(firstword $(subst :, ,$(b)))/%.bpf.o,$(wildcard tests/corpus/*.bpf.c)))

LIB_SRCS  := $(wildcard base/*.c loader/*.c lab/*.c device/*.c hwmap/*.c verifier/*.c runner/*.c)
LIB_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))
LIB       := $(BUILD)/libhwxdp.a
# The shared library: the same objects, only the symbols of hwxdp.map (the
# public headers' HWXDP_API functions) exported.
LIB_VERSION := 0.1.0
LIB_ABI     := 0
SONAME      := libhwxdp.so.$(LIB_ABI)
SOLIB       := $(BUILD)/libhwxdp.so.$(LIB_VERSION)
# The forwarding program's lab (fwdlab/): its control helpers, the lab
# topology, the netns helper; for the command, tests and benchmarks, never
# installed.
FWDLAB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard fwdlab/*.c))
FWDLAB_LIB  := $(BUILD)/libhwxdplab.a

# The daemon: its library (linked by its tests and by the command, the
# client) and the hwxdpd binary.
DAEMON_SRCS := $(filter-out daemon/main.c,$(wildcard daemon/*.c))
DAEMON_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(DAEMON_SRCS))
DAEMON_LIB  := $(BUILD)/libhwxdpd.a
DAEMON      := $(BUILD)/hwxdpd
DAEMON_LDLIBS := $(shell $(PKG_CONFIG) --libs libxdp libmnl 2>/dev/null || echo -lxdp -lmnl) -lpthread

CMD_SRCS  := $(wildcard cmd/*.c)
CMD_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(CMD_SRCS))
CMD       := $(BUILD)/hwxdp
# hwxdp(8) and the bash completion, which the command prints from its
# grammar (cmd/grammar.c): the man page's synopses go into its template.
CMD_MAN        := $(BUILD)/man/hwxdp.8
CMD_COMPLETION := $(BUILD)/hwxdp.bash-completion
CMD_GENERATED  := $(CMD_MAN) $(CMD_COMPLETION)

# One criterion binary per test folder, linking that folder's *.c and the
# shared fixtures in tests/common/.
TEST_COMMON := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/common/*.c))
TEST_DIRS := $(sort $(dir $(wildcard tests/*/test_*.c)))
TEST_BINS := $(foreach d,$(TEST_DIRS),$(BUILD)/tests/$(notdir $(patsubst %/,%,$(d))).test)
TOOL_BINS := $(foreach f,$(wildcard tests/*/*_dump.c),$(BUILD)/tests/$(notdir $(basename $(f)))) \
	     $(BUILD)/vdiff $(BUILD)/devdiff
# The translator with a fault put back, which the tests must catch.
MUTANT_BINS := $(BUILD)/mutants/devdiff_combine.test $(BUILD)/tests/prove_mutant.test \
	       $(BUILD)/mutants/hwxdp $(BUILD)/mutants/hwxdp_units $(BUILD)/mutants/prove_mutants
# Objects `hwxdp prog prove` is tested on (tests/prove).
PROVE_OBJS := $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(wildcard tests/prove/bpf/*.bpf.c))
# Objects the differential tests run on both targets (tests/devdiff).
DEVDIFF_OBJS := $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(wildcard tests/devdiff/bpf/*.bpf.c))
# An object whose maps have every BTF kind, for the daemon's tests
# (tests/daemon/btf_kinds.bpf.c).
DAEMON_TEST_OBJS := $(BUILD)/tests/daemon/btf_kinds.bpf.o

.PHONY: all test run deps clean format bench fuzz-control fuzz-daemon fuzz-images install uninstall \
	prove-mutants prove-all
all: $(BPF_OBJS) $(CORPUS_OBJS) $(PROVE_OBJS) $(DEVDIFF_OBJS) $(DAEMON_TEST_OBJS) $(LIB) $(SOLIB) $(DAEMON_LIB) $(DAEMON) \
     $(CMD) $(TEST_BINS) $(TOOL_BINS) $(MUTANT_BINS) $(CMD_GENERATED)

deps:
	$(Q)scripts/install-deps.sh

test: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) scripts/run-tests.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash scripts/appliance/live-lab.sh

$(BUILD)/progs/%.bpf.o: progs/%.bpf.c $(wildcard progs/include/hwxdp/*.h) include/hwxdp/platform.h
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/progs/fwd_alu32.bpf.o: progs/fwd.bpf.c $(wildcard progs/include/hwxdp/*.h) include/hwxdp/platform.h
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -mcpu=v3 -c $< -o $@

# Two builds that mark what they forward (DSCP 1 and 2): tests of prog replace.
$(BUILD)/progs/fwd_mark%.bpf.o: progs/fwd.bpf.c $(wildcard progs/include/hwxdp/*.h) include/hwxdp/platform.h
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DHWXDP_FWD_MARK=$* -c $< -o $@

# A build whose flow table has another size: a replace needs `fresh flows`.
$(BUILD)/progs/fwd_flows32k.bpf.o: progs/fwd.bpf.c $(wildcard progs/include/hwxdp/*.h) include/hwxdp/platform.h
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DHWXDP_MAX_FLOWS=32768 -c $< -o $@

define corpus_build
$(BUILD)/tests/corpus-$(1)/%.bpf.o: tests/corpus/%.bpf.c $(wildcard tests/corpus/include/*.h)
	@mkdir -p $$(@D)
	$$(call msg,BPF,$$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $$(CORPUS_CFLAGS.$$*) $(2) -c $$< -o $$@
endef
$(foreach b,$(CORPUS_BUILDS),$(eval $(call corpus_build,$(firstword $(subst :, ,$(b))),$(lastword $(subst :, ,$(b))))))

$(BUILD)/tests/%.bpf.o: tests/%.bpf.c $(wildcard tests/corpus/include/*.h)
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(CORPUS_CFLAGS.$(notdir $*)) -c $< -o $@

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# The library's objects are rebuilt when the flags change (a tree built
# before -fPIC cannot make the shared library from its objects).
$(BUILD)/.cflags: FORCE
	@mkdir -p $(@D)
	@echo '$(CFLAGS)' | cmp -s - $@ || echo '$(CFLAGS)' >$@
$(LIB_OBJS): $(BUILD)/.cflags
.PHONY: FORCE

$(SOLIB): $(LIB_OBJS) hwxdp.map
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=hwxdp.map \
		-Wl,--no-undefined $(LIB_OBJS) $(LDLIBS) -lpthread -o $@
	$(Q)ln -sf $(notdir $@) $(BUILD)/$(SONAME) && ln -sf $(SONAME) $(BUILD)/libhwxdp.so

$(CMD): $(CMD_OBJS) $(DAEMON_LIB) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(FWDLAB_LIB): $(FWDLAB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# Generated with the built command, from the table its help prints.
$(CMD_MAN): docs/man/hwxdp.8.in $(CMD)
	@mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)$(CMD) help --man $< >$@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

$(CMD_COMPLETION): $(CMD)
	$(call msg,GEN,$@)
	$(Q)$(CMD) help --bash-completion >$@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

$(DAEMON_LIB): $(DAEMON_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(DAEMON): $(BUILD)/daemon/main.o $(DAEMON_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) $(DAEMON_LDLIBS) -o $@

# The daemon's tests link its library before the base one.
$(BUILD)/tests/daemon.test: $(DAEMON_LIB) | $(DAEMON_TEST_OBJS)
$(BUILD)/tests/daemon.test: TEST_LDLIBS := $(DAEMON_LIB) $(LIB) $(TEST_LDLIBS) $(DAEMON_LDLIBS)

# The corpus test drives both sides of a run with tests/devdiff's pair.
$(BUILD)/tests/corpus.test: $(BUILD)/tests/devdiff/pair.o
$(BUILD)/tests/corpus.test: TEST_LDLIBS := $(LIB) $(TEST_LDLIBS)

define test_bin
$(BUILD)/tests/$(1).test: $(patsubst %.c,$(BUILD)/%.o,$(filter-out %_dump.c %_main.c %.bpf.c,$(wildcard tests/$(1)/*.c))) $(TEST_COMMON) $(FWDLAB_LIB) $(LIB)
	$$(call msg,LINK,$$@)
	$$(Q)$$(CC) $$(LDFLAGS) $$^ $$(TEST_LDLIBS) $$(LDLIBS) -o $$@
endef
$(foreach d,$(TEST_DIRS),$(eval $(call test_bin,$(notdir $(patsubst %/,%,$(d))))))

# The verifier's differential harness against the kernel, as a program.
$(BUILD)/vdiff: $(patsubst %.c,$(BUILD)/%.o,$(filter-out %/test_vdiff.c,$(wildcard tests/vdiff/*.c))) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The device against the kernel, differentially, as a program.
$(BUILD)/devdiff: $(patsubst %.c,$(BUILD)/%.o,$(filter-out $(wildcard tests/devdiff/test_*.c),$(wildcard tests/devdiff/*.c))) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The translator with a fault it once had put back (HWXDP_MUTANT_* in
# hwmap/): the differential tests must fail on it (scripts/run-tests.sh).
$(BUILD)/mutants/combine.o: hwmap/combine.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -DHWXDP_MUTANT_COMBINE_ORDER -c $< -o $@

$(BUILD)/mutants/devdiff_combine.test: $(BUILD)/mutants/combine.o $(patsubst %.c,$(BUILD)/%.o,$(filter-out %_dump.c %_main.c,$(wildcard tests/devdiff/*.c))) $(TEST_COMMON) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(TEST_LDLIBS) $(LDLIBS) -o $@

# The prover's tests on the same mutant, built to expect its counterexamples;
# in build/tests/ so that every test run runs it.
$(BUILD)/mutants/tests/prove/%.o: tests/prove/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -DHWXDP_MUTANT_COMBINE_ORDER -c $< -o $@

$(BUILD)/tests/prove_mutant.test: $(BUILD)/mutants/combine.o $(BUILD)/mutants/tests/prove/test_prove.o $(TEST_COMMON) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(TEST_LDLIBS) $(LDLIBS) -o $@

# The command on the same mutant, for `hwxdp prog prove` to refute.
$(BUILD)/mutants/hwxdp: $(BUILD)/mutants/combine.o $(CMD_OBJS) $(DAEMON_LIB) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The command on a translator with two faults of units (hwmap/translate.c):
# a program's first clock reading made a read of the CPU's number
# (HWXDP_MUTANT_CLOCK_CPU), BPF_F_EXCLUDE_INGRESS dropped from constant
# redirect flags (HWXDP_MUTANT_REDIRECT_NO_EXCLUDE), for `hwxdp prog prove`
# to refute through its replay (tests/prove/test_cmd.c).
$(BUILD)/mutants/translate_units.o: hwmap/translate.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -DHWXDP_MUTANT_CLOCK_CPU -DHWXDP_MUTANT_REDIRECT_NO_EXCLUDE -c $< -o $@

$(BUILD)/mutants/hwxdp_units: $(BUILD)/mutants/translate_units.o $(CMD_OBJS) $(DAEMON_LIB) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The mutation run over the translator (tests/prove/mutants_main.c): hwmap/
# built with the hook of hwmap/mutant.h, its seeded faults one at a time.
MUTANT_HWMAP_OBJS := $(patsubst %.c,$(BUILD)/mutants/%.o,$(wildcard hwmap/*.c))
$(BUILD)/mutants/hwmap/%.o: hwmap/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -DHWXDP_MUTANTS -c $< -o $@

$(BUILD)/mutants/prove_mutants: $(BUILD)/tests/prove/mutants_main.o $(MUTANT_HWMAP_OBJS) $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

prove-mutants: all
	$(Q)$(BUILD)/mutants/prove_mutants

# Every program the project ships and the corpus, proven one by one with a
# time limit each (PROVE_LIMIT seconds), as a table; not part of `make test`.
prove-all: all
	$(Q)BUILD=$(BUILD) scripts/prove-all.sh

# Frame dumpers whose output an independent implementation (scapy) checks.
define dump_bin
$(BUILD)/tests/$(notdir $(basename $(1))): $(BUILD)/$(basename $(1)).o $(FWDLAB_LIB) $(LIB)
	$$(call msg,LINK,$$@)
	$$(Q)$$(CC) $$(LDFLAGS) $$^ $$(LDLIBS) -o $$@
endef
$(foreach f,$(wildcard tests/*/*_dump.c),$(eval $(call dump_bin,$(f))))

# Benchmarks: one program per bench/*.c; `make bench` builds and runs them.
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))
bench: deps
	$(Q)$(MAKE) --no-print-directory $(BENCH_BINS)
	$(Q)for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done
	$(Q)echo "== bench/live/appliance.sh"; bash bench/live/appliance.sh
.SECONDARY: $(BENCH_BINS:=.o)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(FWDLAB_LIB) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The control socket's parser under libFuzzer (clang, ASan, UBSan); kept out
# of `make test`. FUZZ_SECONDS=N for a longer run.
FUZZ_SECONDS ?= 20
fuzz-control:
	@mkdir -p $(BUILD)/fuzz/corpus/control
	$(call msg,FUZZ,$(BUILD)/fuzz/fuzz_control)
	$(Q)$(CLANG) -g -O1 -std=gnu11 -I. -Iinclude -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		tests/fuzz/fuzz_control.c daemon/proto.c -o $(BUILD)/fuzz/fuzz_control
	$(Q)$(BUILD)/fuzz/fuzz_control -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		$(BUILD)/fuzz/corpus/control

# The live daemon, built with ASan/UBSan into build-san, forwarding pings
# while its control socket takes junk for FUZZ_SECONDS (make fuzz-daemon
# FUZZ_SECONDS=600: the 10-minute run). Root.
fuzz-daemon:
	$(Q)$(MAKE) --no-print-directory BUILD=build-san SAN=1 build-san/hwxdpd build-san/hwxdp \
		build-san/progs/fwd.bpf.o
	$(Q)BUILD=build-san HWXDP_JUNK_SECONDS=$(FUZZ_SECONDS) bash tests/integration/daemon_ping.sh

# The long mutation run over fwd's image (tests/image/test_mutants.c):
# 10,000 mutants, every accepted one run on the interpreted engine and every
# 100th on the compiled one. `make BUILD=build-san SAN=1 fuzz-images` runs it
# under the sanitizers.
fuzz-images: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/tests/image.test
	$(Q)HWXDP_MUTANTS=$${HWXDP_MUTANTS:-10000} HWXDP_MUTANTS_COMPILE=$${HWXDP_MUTANTS_COMPILE:-100} \
		$(BUILD)/tests/image.test --filter 'mutants/random*' --jobs 1 --verbose

# Installed as libraries of the field are: PREFIX (default /usr/local),
# DESTDIR for a staging root. `make uninstall` removes what this installs.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SBINDIR    ?= $(PREFIX)/sbin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
UNITDIR    ?= $(PREFIX)/lib/systemd/system
PCDIR      ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PUBLIC_HEADERS := $(wildcard include/hwxdp/*.h)
MAN_PAGES := $(wildcard docs/man/*.[1-8]) $(CMD_MAN)

$(BUILD)/hwxdp.pc: hwxdp.pc.in Makefile
	$(call msg,GEN,$@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(LIB_VERSION)|' $< >$@

install: $(CMD) $(DAEMON) $(LIB) $(SOLIB) $(BUILD)/hwxdp.pc $(CMD_GENERATED)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(PCDIR) $(DESTDIR)$(INCLUDEDIR)/hwxdp $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(BASHCOMPDIR)
	$(Q)install -m 755 $(CMD) $(DESTDIR)$(BINDIR)/hwxdp
	$(Q)install -m 755 $(DAEMON) $(DESTDIR)$(SBINDIR)/hwxdpd
	$(Q)install -m 644 daemon/hwxdpd.service $(DESTDIR)$(UNITDIR)/hwxdpd.service
	$(Q)install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libhwxdp.a
	$(Q)install -m 755 $(SOLIB) $(DESTDIR)$(LIBDIR)/$(notdir $(SOLIB))
	$(Q)ln -sf $(notdir $(SOLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libhwxdp.so
	$(Q)install -m 644 $(BUILD)/hwxdp.pc $(DESTDIR)$(PCDIR)/hwxdp.pc
	$(Q)install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/hwxdp/
	$(Q)install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man8/
	$(Q)install -m 644 $(CMD_COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/hwxdp
	$(Q)$(if $(DESTDIR),,ldconfig 2>/dev/null || true)

uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(DESTDIR)$(BINDIR)/hwxdp $(DESTDIR)$(SBINDIR)/hwxdpd \
		$(DESTDIR)$(UNITDIR)/hwxdpd.service $(DESTDIR)$(LIBDIR)/libhwxdp.a \
		$(DESTDIR)$(LIBDIR)/$(notdir $(SOLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libhwxdp.so $(DESTDIR)$(PCDIR)/hwxdp.pc \
		$(DESTDIR)$(BASHCOMPDIR)/hwxdp \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/hwxdp/,$(notdir $(PUBLIC_HEADERS))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MAN_PAGES)))
	$(Q)rmdir $(DESTDIR)$(INCLUDEDIR)/hwxdp 2>/dev/null || true

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
