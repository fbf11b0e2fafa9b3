/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiled mode of the packet engine: the image, once the device's checks
 * accept it, becomes C source (one function, HXU registers as locals,
 * branch targets as labels), which the host's C compiler turns into a
 * shared object that is loaded with dlopen(); a frame then runs as native
 * code. Operations keep the interpreter's semantics to the bit, faults
 * included (error and fault_op): packet and local-memory accesses are
 * checked as the ISA says, and the units (tables, port table, header and
 * checksum units, crypto engine, clock, random numbers) are the engine's
 * own code, reached through callbacks in a context struct that also holds
 * the table pointers. The generated code holds no address of the process,
 * so it is cached by a hash of its text, the compiler and its flags in
 * $XDG_CACHE_HOME/hwxdp (or ~/.cache/hwxdp; no cache when neither is
 * writable). In a process, engines of the same image share one object.
 *
 * The compiler is $HWXDP_CC (words split at spaces), else `cc`, run with
 * -O2 -fPIC -shared -fno-strict-aliasing -fwrapv in a temporary directory
 * that is removed afterwards. Without a compiler, on a compile error or a
 * dlopen() failure, the engine keeps interpreting (one pr_info line says
 * why): choosing compiled mode never fails a load.
 *
 * Engines interpret unless asked: hwxdp_engine__set_mode, or the process
 * default hwxdp_engine__set_default_mode for engines made afterwards. The
 * environment variable HWXDP_ENGINE=compiled|interp overrides both; any
 * other value is a warning (once), and the mode asked for stands.
 *
 * Counting: compiled code counts as the interpreter does, per basic block
 * (operations, issue slots and the cost model's cycles, the rest of the
 * block taken back out when a frame aborts inside it), when the run asks
 * for stats; without stats it skips a test per block.
 */
#ifndef HWXDP_DEVICE_COMPILE_H
#define HWXDP_DEVICE_COMPILE_H

#include <stdbool.h>
#include <stdint.h>

#include "device/engine.h"

enum hwxdp_engine_mode {
	HWXDP_ENGINE_INTERP,
	HWXDP_ENGINE_COMPILED,
};

/*
 * Runs e's frames compiled (compiling the image now, or reusing a compiled
 * copy) or interpreted. HWXDP_ENGINE in the environment overrides mode.
 * Returns 0 even when compiling fails (e then interprets, see
 * hwxdp_engine__mode), -ENOMEM when memory runs out.
 */
int hwxdp_engine__set_mode(struct hwxdp_engine *e, enum hwxdp_engine_mode mode);
/* How e runs frames without stats now. */
enum hwxdp_engine_mode hwxdp_engine__mode(const struct hwxdp_engine *e);

/* The mode engines made from now on start in (HWXDP_ENGINE overrides it);
 * HWXDP_ENGINE_INTERP unless set. */
void hwxdp_engine__set_default_mode(enum hwxdp_engine_mode mode);
enum hwxdp_engine_mode hwxdp_engine__default_mode(void);
/* mode, or what HWXDP_ENGINE forces instead. */
enum hwxdp_engine_mode hwxdp_engine_mode__resolve(enum hwxdp_engine_mode mode);

/* ---- between the engine and its compiler ---- */

#define HWXDP_COMPILE_NO_LABEL UINT32_MAX

/* One operation in the order the interpreter runs them (a bundle's
 * operations may run in another order than the image's, see engine.c). */
struct hwxdp_compile_step {
	uint32_t label; /* the word a branch, call or entry names here, at the
			   start of a bundle; HWXDP_COMPILE_NO_LABEL inside one */
	uint32_t word;	/* the operation run */
	bool budget;	/* a loop header: takes one from the loop budget */
	bool bundle_start;
	bool leader;	 /* starts a basic block (where counting happens) */
	uint8_t latency; /* the operation's cycles beyond its bundle's */
};

/* What compiling needs from an image the device accepted: a copy, so that
 * the image may go. NULL with errno ENOMEM. */
struct hwxdp_compile_src;
struct hwxdp_compile_src *hwxdp_compile_src__new(const struct hxu_image *img,
						 const struct hwxdp_compile_step *steps,
						 uint32_t step_cnt);
void hwxdp_compile_src__free(struct hwxdp_compile_src *src);

/* The C source of src, malloc'ed (NULL with errno ENOMEM). */
char *hwxdp_compile_src__text(const struct hwxdp_compile_src *src);

/*
 * A compiled copy of src for one engine, whose local memory is lm and
 * random state *rand_state; NULL when it cannot be had (the reason is
 * printed with pr_info) or memory runs out.
 */
struct hwxdp_compiled;
struct hwxdp_compiled *hwxdp_compiled__new(const struct hwxdp_compile_src *src,
					   struct hwxdp_tables *tables, uint8_t *lm,
					   uint64_t *rand_state);
void hwxdp_compiled__free(struct hwxdp_compiled *cp);

/* One program's run under hwxdp_engine__run's contract (the entry program
 * of a redirect is the caller's); prog and the frame's geometry already
 * checked. cpu is the engine's number, tx the egress ifindex the program
 * reads (0 for a port's program). */
int hwxdp_compiled__run(struct hwxdp_compiled *cp, uint32_t prog, struct hwxdp_frame *f,
			uint32_t cpu, uint32_t tx, struct hwxdp_run_stats *stats);

/* Testing the tests: a nonzero value makes the code generator emit one
 * operation wrongly (64-bit `sub` with a register source adds one too
 * many), so that a differential test can show it notices. */
extern int hwxdp_compile__test_break;

#endif /* HWXDP_DEVICE_COMPILE_H */
