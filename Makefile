# forkless - one static multicall binary for minimal Linux images.
#
#   make              build ./forkless from .config (made from
#                     config/defconfig when absent)
#   make check        the whole test suite (needs root: chroot, namespaces)
#   make help         every target
#
# Variables: CC (default musl-gcc), CFLAGS (default -Os), O (object dir,
# default build), KCONFIG_CONFIG (default .config), BIN (default forkless),
# DESTDIR (for install, default /).

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
APPLET_SRCS := $(sort $(wildcard applets/*.c))
LIB_SRCS := $(sort $(wildcard libcommon/*.c))
OBJS := $(patsubst %.c,$(O)/%.o,$(APPLET_SRCS) $(LIB_SRCS))

WARN := -Wall -Wextra -Werror
# The ELF entry point (applets/xen-early.c) runs the Xen wrapper's exec
# path before TLS exists, through helpers in several files: a stack
# protector canary read there would fault. After CFLAGS, so that a
# toolchain or user default of -fstack-protector* cannot turn it back on.
NO_SSP := -fno-stack-protector
ALL_CFLAGS := -std=c11 $(WARN) -D_GNU_SOURCE -ffunction-sections \
	-fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-I$(O)/include -Ilibcommon -Iapplets -I$(GEN) -MMD -MP $(CFLAGS) \
	$(NO_SSP)
# STATIC= and STRIP= make a dynamic, unstripped binary (the ASan/UBSan
# variant of tests/asan/suite.sh); the default is static and stripped.
STATIC ?= -static
STRIP ?= -s
ALL_LDFLAGS := $(STATIC) -Wl,--gc-sections -Wl,--build-id=none -Wl,-z,noseparate-code \
	-Wl,-z,norelro -Wl,--hash-style=gnu $(STRIP) $(LDFLAGS)
# On x86_64 the ELF entry point is forkless_start (applets/xen-early.c):
# the Xen wrapper's exec path runs there before libc initialises.
# It runs before any self-relocation a static-pie start file would do, so
# the binary is linked at a fixed address (-no-pie).
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine 2>/dev/null)),)
ALL_LDFLAGS += -Wl,-no-pie -Wl,-e,forkless_start
endif
STRIP_EXTRA := -R .comment -R .note -R .note.gnu.property -R .eh_frame

Q := $(if $(V),,@)

all: $(BIN)

$(BIN): $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(OBJS)
	$(if $(STRIP),$(Q)objcopy $(STRIP_EXTRA) $@)

$(O)/%.o: %.c $(O)/include/autoconf.h Makefile | $(O)/.tools
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/libcommon/multicall.o: $(GEN)/applet_table.h

-include $(OBJS:.o=.d)

# Build tools: installed with apt-get when missing and running as root.
$(O)/.tools:
	@config/need-tools.sh $(firstword $(CC))
	@mkdir -p $(@D) && touch $@
$(GEN)/.kconfig-tools:
	@config/need-tools.sh $(KCONFIG_CONF)
	@mkdir -p $(@D) && touch $@

# ---- generated files (each rewritten only when its content changes) ----
$(GEN)/.applets.stamp: $(APPLET_SRCS) config/gen-applets.sh
	$(Q)config/gen-applets.sh $(GEN) $(APPLET_SRCS)
	@touch $@
$(GEN)/Config.applets.in $(GEN)/applet_table.h: $(GEN)/.applets.stamp ;

$(KCONFIG_CONFIG): Config.in $(GEN)/Config.applets.in | $(GEN)/.kconfig-tools
	@mkdir -p $(@D)
	$(Q)if [ -f $@ ]; then \
		$(KCONFIG_CONF) --olddefconfig Config.in >/dev/null; \
	else \
		echo "  GEN     $@ from config/defconfig"; \
		$(KCONFIG_CONF) --defconfig=config/defconfig Config.in >/dev/null; \
	fi
	@touch $@

$(O)/include/.autoconf.stamp: $(KCONFIG_CONFIG) Config.in $(GEN)/Config.applets.in config/gen-autoconf.sh
	@mkdir -p $(@D)
	$(Q)sed -n 's/^[[:space:]]*config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\1/p' \
		Config.in $(GEN)/Config.applets.in >$(O)/include/symbols
	$(Q)config/gen-autoconf.sh $(KCONFIG_CONFIG) $(O)/include/symbols $(O)/include/autoconf.h
	@touch $@
$(O)/include/autoconf.h: $(O)/include/.autoconf.stamp ;

# ---- configuration -------------------------------------------------------
CONFIG_DEPS := Config.in $(GEN)/Config.applets.in | $(GEN)/.kconfig-tools \
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

check: $(BIN)
	FORKLESS=$(abspath $(BIN)) tests/run

check-vm: $(BIN)
	tests/vm/run $(abspath $(BIN))

# the Xen boot of check-vm alone: the stub checks and the real toolstack (tests/vm/toolstack/)
check-xen-toolstack: $(BIN)
	VM_ONLY=xen tests/vm/run $(abspath $(BIN))

bench: $(BIN)
	FORKLESS=$(abspath $(BIN)) tests/bench/run

clean:
	rm -rf build $(O) $(BIN)
distclean: clean
	rm -f .config .config.old

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile
	@echo "Targets: all menuconfig defconfig NAME_defconfig allnoconfig allyesconfig"
	@echo "         olddefconfig savedefconfig install check check-vm bench clean distclean"
	@echo "Named configs: $(patsubst config/%,%,$(wildcard config/*_defconfig))"

.PHONY: all menuconfig defconfig allnoconfig allyesconfig olddefconfig \
	savedefconfig install check check-vm check-xen-toolstack bench clean distclean help
