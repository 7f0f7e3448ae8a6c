# SPDX-License-Identifier: MIT
# forkless - one static multicall binary for minimal Linux images.
#
#   make              build ./forkless from .config (made from
#                     config/defconfig when absent)
#   make check        the whole test suite (needs root: chroot, namespaces;
#                     installs what it needs with apt-get, as make does)
#   make check-fast   the developer's loop: no VM boot, no build matrix,
#                     ASan rerun or packaging, fuzzing briefly
#   make help         every target
#
# Variables: CC (default musl-gcc), CFLAGS (default -Os), O (object dir,
# default build), KCONFIG_CONFIG (default .config), BIN (default forkless),
# DESTDIR (for install, default /), LTO (auto, yes or no).

.DEFAULT_GOAL := all
SHELL := /bin/sh

# make's built-in default CC is `cc`: only a CC the user did not choose
# becomes musl-gcc.
ifeq ($(origin CC),default)
CC := musl-gcc
endif
CFLAGS ?= -Os
O ?= build
BIN ?= forkless
KCONFIG_CONFIG ?= .config
export KCONFIG_CONFIG
KCONFIG_CONF ?= kconfig-conf
KCONFIG_MCONF ?= kconfig-mconf
DESTDIR ?= /

# The applet list generated from the sources (Config.applets.in, the
# applet table) does not depend on the configuration: one copy, in
# build/gen, serves every O= (Config.in sources it by that path).
GEN := build/gen
# One folder per applet family: applets/FAMILY/*.c, its menu
# applets/FAMILY/Config.in.
APPLET_SRCS := $(sort $(wildcard applets/*/*.c))
FAMILY_MENUS := $(sort $(wildcard applets/*/Config.in))
SRCS := $(sort $(wildcard core/*.c)) $(sort $(wildcard libcommon/*.c)) \
	$(APPLET_SRCS)
OBJS := $(patsubst %.c,$(O)/%.o,$(SRCS))

WARN := -Wall -Wextra -Werror
# The ELF entry point (core/entry.c) runs applets' early hooks (the Xen
# wrapper's exec path) before TLS exists, through helpers in several
# files: a stack protector canary read there would fault. After CFLAGS, so
# that a toolchain or user default of -fstack-protector* cannot turn it
# back on.
NO_SSP := -fno-stack-protector
ALL_CFLAGS := -std=c11 $(WARN) -D_GNU_SOURCE -ffunction-sections \
	-fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-I$(O)/include -Icore -Ilibcommon -Iapplets -I$(GEN) -MMD -MP $(CFLAGS) \
	$(NO_SSP)
# STATIC= and STRIP= make a dynamic, unstripped binary (the ASan/UBSan
# variant of tests/asan/suite.sh); the default is static and stripped.
STATIC ?= -static
STRIP ?= -s
# common-page-size=64: ld otherwise starts the RW segment on a fresh page
# whenever it would straddle a page boundary (DATA_SEGMENT_ALIGN saving a
# page of memory), padding the file by up to 4 KiB at once; the kernel
# maps it the same either way (offset and address stay congruent).
ALL_LDFLAGS := $(STATIC) -Wl,--gc-sections -Wl,--build-id=none -Wl,-z,noseparate-code \
	-Wl,-z,norelro -Wl,-z,common-page-size=64 -Wl,--hash-style=gnu $(STRIP) $(LDFLAGS)
# Flags that depend on the target (on x86_64: the entry point
# forkless_start, -no-pie, -fno-pie) or on what CC accepts (LTO, GCC's
# code generation choices that save bytes, one of them for applets/ alone),
# decided by config/target-flags.sh once need-tools.sh has installed CC,
# and read by the recipes.
TARGET_FLAGS := $(O)/.target-flags
LTO ?= auto
TARGET_CFLAGS = $$(sed -n 's/^cflags//p' $(TARGET_FLAGS))
TARGET_LDFLAGS = $$(sed -n 's/^ldflags//p' $(TARGET_FLAGS))
APPLET_CFLAGS = $$(sed -n 's/^appletcflags//p' $(TARGET_FLAGS))
STRIP_EXTRA := -R .comment -R .note -R .note.gnu.property -R .eh_frame

Q := $(if $(V),,@)

all: $(BIN)

$(BIN): $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(TARGET_CFLAGS) $(ALL_LDFLAGS) $(TARGET_LDFLAGS) -o $@ $(OBJS)
	$(if $(STRIP),$(Q)objcopy $(STRIP_EXTRA) $@)

$(O)/%.o: %.c $(O)/include/autoconf.h Makefile $(TARGET_FLAGS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(TARGET_CFLAGS) -c -o $@ $<

$(O)/core/table.o: $(GEN)/applet_table.h
$(O)/applets/%.o: TARGET_CFLAGS += $(APPLET_CFLAGS)

-include $(OBJS:.o=.d)

# Build tools: installed with apt-get when missing and running as root.
# (musl-gcc is a wrapper that runs gcc.)
$(TARGET_FLAGS): config/target-flags.sh $(O)/.lto-$(LTO)
	@config/need-tools.sh $(firstword $(CC)) \
		$(if $(filter musl-gcc,$(notdir $(firstword $(CC)))),gcc)
	@mkdir -p $(@D)
	$(Q)config/target-flags.sh $(LTO) $(CC) >$@.tmp && mv $@.tmp $@
# A stamp per LTO value, so that changing it rebuilds with the new flags.
$(O)/.lto-$(LTO):
	@mkdir -p $(@D) && rm -f $(O)/.lto-* && touch $@
$(GEN)/.kconfig-tools:
	@config/need-tools.sh $(KCONFIG_CONF)
	@mkdir -p $(@D) && touch $@

# ---- generated files (each rewritten only when its content changes) ----
$(GEN)/.applets.stamp: $(APPLET_SRCS) $(FAMILY_MENUS) config/gen-applets.sh
	$(Q)config/gen-applets.sh $(GEN) $(APPLET_SRCS)
	@touch $@
$(GEN)/Config.applets.in $(GEN)/applet_table.h: $(GEN)/.applets.stamp ;

$(KCONFIG_CONFIG): Config.in $(GEN)/.applets.stamp $(FAMILY_MENUS) | $(GEN)/.kconfig-tools
	@mkdir -p $(@D)
	$(Q)if [ -f $@ ]; then \
		$(KCONFIG_CONF) --olddefconfig Config.in >/dev/null; \
	else \
		echo "  GEN     $@ from config/defconfig"; \
		$(KCONFIG_CONF) --defconfig=config/defconfig Config.in >/dev/null; \
	fi
	@touch $@

$(O)/include/.autoconf.stamp: $(KCONFIG_CONFIG) Config.in $(GEN)/.applets.stamp config/gen-autoconf.sh
	@mkdir -p $(@D)
	$(Q)sed -n 's/^[[:space:]]*config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\1/p' \
		Config.in $(GEN)/applets/*/Config.in >$(O)/include/symbols
	$(Q)config/gen-autoconf.sh $(KCONFIG_CONFIG) $(O)/include/symbols $(O)/include/autoconf.h
	@touch $@
$(O)/include/autoconf.h: $(O)/include/.autoconf.stamp ;

# ---- configuration -------------------------------------------------------
CONFIG_DEPS := Config.in $(GEN)/Config.applets.in $(FAMILY_MENUS) | $(GEN)/.kconfig-tools \
	$(dir $(KCONFIG_CONFIG))
$(sort $(dir $(KCONFIG_CONFIG))):
	@mkdir -p $@

menuconfig: $(CONFIG_DEPS)
	$(KCONFIG_MCONF) Config.in
defconfig: $(CONFIG_DEPS)
	$(KCONFIG_CONF) --defconfig=config/defconfig Config.in
# A named defconfig with the line "# base: allnoconfig" lists everything it
# wants on top of allnoconfig (applets added later stay out of it); any
# other is applied on top of the defaults.
%_defconfig: config/%_defconfig $(CONFIG_DEPS)
	$(Q)if grep -qx '# base: allnoconfig' $<; then \
		KCONFIG_ALLCONFIG=$< $(KCONFIG_CONF) --allnoconfig Config.in; \
	else \
		$(KCONFIG_CONF) --defconfig=$< Config.in; \
	fi
allnoconfig allyesconfig olddefconfig: $(CONFIG_DEPS)
	$(KCONFIG_CONF) --$@ Config.in
savedefconfig: $(CONFIG_DEPS)
	@mkdir -p $(O)
	$(KCONFIG_CONF) --savedefconfig=$(O)/defconfig Config.in
	@echo "wrote $(O)/defconfig (only the options that differ from the defaults)"

# ---- install, tests, benchmarks -----------------------------------------
# The tests and benchmarks use $(BIN) (exported as FORKLESS).
install: $(BIN)
	$(abspath $(BIN)) --install -s $(DESTDIR)

# What `make check` needs beyond the build tools, installed as make installs
# those (config/need-tools.sh): strace (syscall budgets), dash (Debian's
# scripts run with it), util-linux and mount (mount(8), unshare, setpriv),
# file, qemu-system-x86 and cpio (real Xen under QEMU; Xen, the kernel and
# busybox-static are only downloaded, into build/), clang and
# libclang-rt-dev (fuzzing: the runtime of the default clang, 14 on Debian
# 12, 19 on 13), python3 (a stand-in xenstore), gcc (unit
# and ASan/UBSan builds), bridge-utils, iproute2, losetup and net-tools
# (the hotplug tests run Debian's vif-bridge, block and vif-route with them),
# e2fsprogs and btrfs-progs (block's mounted-in-dom0 check on real mounts),
# qemu-system-common (/usr/lib/qemu/virtiofsd: the VM test's virtio-fs share;
# Debian 12 has no virtiofsd package; Debian 13's is the package virtiofsd,
# which the pseudo-tool virtiofsd installs there), xz and zstd (Debian 12's
# kernel is xz-compressed, 13's zstd; 13's modules are .ko.xz).
TEST_TOOLS := strace dash unshare setpriv mount file cpio xz zstd qemu-system-x86_64 \
	pkg:qemu-system-common virtiofsd clang pkg:libclang-rt-dev python3 gcc pkg:libc6-dev brctl ip losetup ifconfig \
	pkg:e2fsprogs pkg:btrfs-progs pkg:debhelper pkg:dpkg-dev pkg:mmdebstrap pkg:lintian

# TEST_JOBS families at once, the VM boots alone after them (tests/run's
# ALONE_FAMILIES): the host families are much waiting on dpkg, apt and
# timeouts, the VM boots one CPU each under TCG. Three at once on 2
# cores gained nothing (docs/testing.md).
TEST_JOBS ?= 2
check: $(BIN)
	@config/need-tools.sh --for tests $(TEST_TOOLS)
	FORKLESS=$(abspath $(BIN)) tests/run -j $(TEST_JOBS)
# What check-fast needs of them: not QEMU and cpio (the VM boots), nor the
# packaging tools.
TEST_TOOLS_FAST := $(filter-out cpio qemu-system-x86_64 pkg:qemu-system-common virtiofsd zstd \
	pkg:debhelper pkg:dpkg-dev pkg:mmdebstrap pkg:lintian,$(TEST_TOOLS))

# The developer's loop (docs/testing.md): the families' host tests, unit,
# hostile and harness tests, each fuzz target for FUZZ_SECONDS_FAST
# seconds; without the VM boots (and their preparation) and the slow
# techniques of CHECK_FAST_SKIP
# (the ASan rerun, the build matrix, the Debian packages: run them with
# `tests/run asan build packaging`), TEST_JOBS families at once.
FUZZ_SECONDS_FAST ?= 4
CHECK_FAST_SKIP ?= vm vmprep asan build packaging
check-fast: $(BIN)
	@config/need-tools.sh --for tests $(TEST_TOOLS_FAST)
	SKIP_FAMILIES="$(CHECK_FAST_SKIP)" FUZZ_SECONDS=$(FUZZ_SECONDS_FAST) FORKLESS=$(abspath $(BIN)) tests/run -j $(TEST_JOBS)

# docs/applets.md and README's applet and Kconfig tables, from the
# applets' headers (config/gen-docs.sh; tests/harness/docs.sh checks them).
docs: $(GEN)/.applets.stamp
	config/gen-docs.sh $(GEN)/contract docs/applets.md README.md

# Debian packages forkless and forkless-xen (dpkg-buildpackage -b -uc -us in
# a copy of the tree; debian/build-debs), into build/deb; their tests alone.
deb:
	debian/build-debs build/deb
check-packaging: $(BIN)
	FORKLESS=$(abspath $(BIN)) tests/run packaging

check-vm: $(BIN)
	FORKLESS=$(abspath $(BIN)) tests/vm/vm.sh

# the Xen boot of check-vm alone: the stub checks and the real toolstack (tests/vm/toolstack/)
check-xen-toolstack: $(BIN)
	VM_ONLY=xen FORKLESS=$(abspath $(BIN)) tests/vm/vm.sh

bench: $(BIN)
	FORKLESS=$(abspath $(BIN)) tests/bench/run

# the VM suite with Debian's side of each comparison (its scripts in the
# lifecycles and guests, its whole stack in the seed scenario) and five
# untraced lifecycles per set: the process and time tables of
# docs/benchmarks.md (make check runs forkless's side only)
bench-vm: $(BIN)
	VM_BASELINES=1 VM_LIFECYCLES=$${VM_LIFECYCLES:-5} FORKLESS=$(abspath $(BIN)) tests/vm/vm.sh

# 9p and virtio-fs mount options timed in the VM (one boot, minutes; README's table)
bench-shares: $(BIN)
	BENCH_SHARES=1 FORKLESS=$(abspath $(BIN)) bash tests/bench/shares.sh

# the tables the benchmarks left in build/bench/NAME.md, into docs/benchmarks.md
# and README.md (each between <!-- bench:NAME --> and <!-- /bench:NAME -->;
# tests/bench/docs)
bench-docs:
	tests/bench/docs
	tests/bench/docs README.md

clean:
	rm -rf build $(O) $(BIN)
distclean: clean
	rm -f .config .config.old

help:
	@sed -n '3,/^$$/s/^# \{0,1\}//p' Makefile
	@echo "Targets:"
	@echo "  all                 build ./forkless (the default)"
	@echo "  menuconfig          edit .config (kconfig-mconf)"
	@echo "  defconfig           .config from config/defconfig"
	@echo "  NAME_defconfig      .config from config/NAME_defconfig"
	@echo "  allnoconfig allyesconfig olddefconfig"
	@echo "                      kconfig-conf's own"
	@echo "  savedefconfig       \$$(O)/defconfig: the options that differ from the defaults"
	@echo "  install             forkless --install -s \$$(DESTDIR)"
	@echo "  check               the whole test suite (tests/run; docs/testing.md)"
	@echo "  check-fast          the suite without VM boots, asan, build, packaging; short fuzz"
	@echo "  check-packaging     the Debian packages' tests (tests/packaging)"
	@echo "  check-vm            the VM boots alone (tests/vm/run)"
	@echo "  check-xen-toolstack the Xen boot of check-vm alone (VM_ONLY=xen)"
	@echo "  docs                docs/applets.md and README's applet and Kconfig tables, from the headers"
	@echo "  deb                 the Debian packages, into build/deb"
	@echo "  bench               the benchmarks (tests/bench/run)"
	@echo "  bench-vm            the VM suite with Debian's side of each comparison (the VM tables)"
	@echo "  bench-shares        9p and virtio-fs mount options timed in the VM"
	@echo "  bench-docs          copy build/bench/*.md (the benchmarks' tables) into docs/benchmarks.md, README.md"
	@echo "  clean distclean     remove build/ and the binary (distclean: .config too)"
	@echo "  help                this text"
	@echo "Named configs: $(patsubst config/%,%,$(wildcard config/*_defconfig))"

.PHONY: all menuconfig defconfig allnoconfig allyesconfig olddefconfig \
	savedefconfig install docs check check-fast check-packaging check-vm check-xen-toolstack \
	deb bench bench-vm bench-shares bench-docs clean distclean help
