// SPDX-License-Identifier: GPL-2.0
/*
 * The command's grammar (cmd/grammar.h): every object and verb, their
 * synopses, descriptions and options. Help, the man page and the bash
 * completion are printed from here (cmd/help.c); the getopt tables of the
 * commands that take options are made from here too.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd/daemon.h"
#include "cmd/grammar.h"
#include "cmd/main.h"
#include "daemon/daemon.h"
#include "device/device.h"
#include "hwmap/prove.h"

#define STR_(x) #x
#define STR(x)	STR_(x)

const struct cmd_option cmd_global_options[] = {
	{ "json", 'j', true, NULL, 0, NULL, 0, "JSON output" },
	{ "pretty", 'p', true, NULL, 0, NULL, 0, "indented JSON output (implies -j)" },
	{ "help", 'h', true, NULL, 0, NULL, 0, "this help" },
	{ "version", 'V', true, NULL, 0, NULL, 0, "the version" },
	{ 0 },
};

/* hwxdp conformance: parsed by hand (the memory may come first), checked
 * against this table by the CLI tests. */
static const struct cmd_option conformance_options[] = {
	{ "program", 0, false, "HEX", CMD_ARG_WORD, NULL, 0, "the program, instead of stdin" },
	{ "debug", 0, false, NULL, 0, NULL, 0,
	  "the verifier's whole log when it refuses the program" },
	{ "elf", 0, false, NULL, 0, NULL, 0,
	  "the program is an ELF object (hex bytes); its first\n"
	  "program runs, which must use no maps" },
	{ "kernel", 0, false, NULL, 0, NULL, 0,
	  "run on the kernel (BPF_PROG_TEST_RUN, root) instead,\n"
	  "through the same wrapper: the reference for the device" },
	{ 0 },
};

static const struct cmd_option lab_options[] = {
	{ "object", 'o', true, "FILE", CMD_ARG_FILE, NULL, 0,
	  "the program (default: build/progs/fwd.bpf.o)" },
	{ "target", 't', true, "NAME", CMD_ARG_CHOICE, "kernel|device", 0,
	  "where it runs: kernel (default; needs root) or device (the\n"
	  "coprocessor model)" },
	{ 0 },
};

static const struct cmd_option run_options[] = {
	{ "in", 'i', false, "[IFINDEX:]IN.pcap", CMD_ARG_FILE, NULL,
	  CMD_OPT_REQUIRED | CMD_OPT_REPEAT,
	  "an Ethernet capture whose frames arrive on ifindex IFINDEX\n"
	  "(default: --port); several are merged by timestamp;\n"
	  "- for standard input" },
	{ "out", 'o', false, "OUT.pcap", CMD_ARG_FILE, NULL, CMD_OPT_REQUIRED,
	  "forwarded frames; - for standard output" },
	{ "punt", 'P', false, "PUNT.pcap", CMD_ARG_FILE, NULL, 0,
	  "punted frames (otherwise only counted); - for standard\n"
	  "output" },
	{ "maps", 'm', false, "STATE.json", CMD_ARG_FILE, NULL, CMD_OPT_REPEAT,
	  "map entries and SAs to load first (JSON; see hwxdp(8));\n"
	  "several are applied in the order given; - for standard\n"
	  "input" },
	{ "port", 'n', false, "IFINDEX[:FILE.o]", CMD_ARG_WORD, NULL, CMD_OPT_REPEAT,
	  "IFINDEX alone: the ingress ifindex of --in files without one\n"
	  "(default " STR(
		  HWXDP_RUN_DEFAULT_PORT) "); IFINDEX:FILE.o: FILE.o in port IFINDEX's slot;\n"
					  "every program shares the maps of the first one loaded, "
					  "and\n"
					  "must have the same ones" },
	{ "sa", 's', false, "HANDLE:SPI:@FILE:SRC:DST", CMD_ARG_WORD, NULL, CMD_OPT_REPEAT,
	  "an AES-GCM SA in the crypto engine for `sas` entry HANDLE:\n"
	  "FILE (- for standard input) holds the key and salt in hex\n"
	  "(16/24/32 and 4 bytes); tunnel IPv4 source and destination.\n"
	  "HANDLE:SPI:KEY:SALT:SRC:DST works too, with a warning (ps)" },
	{ "engines", 'k', false, "K", CMD_ARG_NUMBER, NULL, 0,
	  "packet engines, one thread each (default " STR(
		  HWXDP_DEVICE_ENGINES_DEFAULT) ", at most " STR(HWXDP_DEVICE_ENGINES_MAX) ")" },
	{ "engine", 'e', false, "MODE", CMD_ARG_CHOICE, "compiled|interp", 0,
	  "compiled (default: the microcode compiled to native code\n"
	  "through the host C compiler, else interpreted) or interp" },
	{ "table", 't', false, "NAME=N", CMD_ARG_WORD, NULL, CMD_OPT_REPEAT,
	  "map NAME gets N entries on the device (default: what the\n"
	  "program asks for in hwxdp_entries_NAME, else the map's\n"
	  "own max_entries, the kernel map's)" },
	{ 0 },
};

static const struct cmd_option verify_options[] = {
	{ "prog", 'P', true, "NAME", CMD_ARG_WORD, NULL, 0, "only this program" },
	{ "log-level", 'l', true, "N", CMD_ARG_CHOICE, "0|1|2", 0,
	  "0: rejections only (default), 1: the path and the\n"
	  "statistics, 2: the register state at every instruction" },
	{ "target", 't', true, "T", CMD_ARG_CHOICE, "device|host", 0,
	  "device (default): the copy the coprocessor runs, with its\n"
	  "kfuncs and restrictions; host: the kernel's copy" },
	{ "unprivileged", 'u', true, NULL, 0, NULL, 0,
	  "host: the kernel's rules without CAP_PERFMON (no pointer\n"
	  "compared, leaked or partly overwritten); the default is\n"
	  "root's, as the appliance loads the host copy" },
	{ "dev-bound", 'b', true, NULL, 0, NULL, 0,
	  "host: the kernel's rules for a copy bound to a netdev\n"
	  "(BPF_F_XDP_DEV_BOUND_ONLY): the XDP metadata kfuncs may be\n"
	  "called; the appliance loads the host copy unbound" },
	{ 0 },
};

/* The options of prog stats, dump and translate: cmd/prog.c's parser,
 * held to these by the CLI tests. */
#define FRAME_KINDS                                                                                \
	"plain|vlan-pop|vlan-push|vlan-swap|ipv6|no-flow|ipv4-tcp|ipv4-udp|ipv4-icmp|ipv6-tcp|"    \
	"ipv6-udp|vlan-udp|arp"
static const struct cmd_option prog_stats_options[] = {
	{ "frame", 'F', false, "KIND", CMD_ARG_CHOICE, FRAME_KINDS, 0,
	  "only this frame: plain, vlan-pop, vlan-push, vlan-swap,\n"
	  "ipv6, no-flow (lab); ipv4-tcp, ipv4-udp, ipv4-icmp,\n"
	  "ipv6-tcp, ipv6-udp, vlan-udp, arp (generic)" },
	{ "maps", 'M', false, "STATE", CMD_ARG_FILE, NULL, 0,
	  "a state file, as for run: the generic frames on its tables" },
	{ 0 },
};

static const struct cmd_option prog_dump_options[] = {
	{ "prog", 'P', false, "NAME", CMD_ARG_WORD, NULL, 0, "the program of that name" },
	{ "maps", 'M', false, "STATE", CMD_ARG_FILE, NULL, 0,
	  "a state file, as for run: then the device's tables as it fills them" },
	{ 0 },
};

static const struct cmd_option prog_translate_options[] = {
	{ "prog", 'P', false, "NAME", CMD_ARG_WORD, NULL, 0, "the program of that name" },
	{ "target", 'T', false, "device", CMD_ARG_CHOICE, "device", 0,
	  "the target whose microcode is made (the only one)" },
	{ "output", 'o', true, "OUT.hxu", CMD_ARG_FILE, NULL, CMD_OPT_REQUIRED,
	  "the image file; - for standard output" },
	{ "prove", 'R', false, NULL, 0, NULL, 0,
	  "write the image only once `prog prove` proves it" },
	{ 0 },
};

static const struct cmd_option prog_prove_options[] = {
	{ "prog", 'P', false, "NAME", CMD_ARG_WORD, NULL, 0, "the program of that name" },
	{ "max-len", 'L', false, "N", CMD_ARG_NUMBER, NULL, 0,
	  "frames of 14 to N bytes (default 128, at most " STR(HWXDP_PROVE_LEN_MAX) ")" },
	{ "timeout-ms", 'T', false, "T", CMD_ARG_NUMBER, NULL, 0,
	  "the solver's time limit, in milliseconds (default 10000)" },
	{ 0 },
};

static const struct cmd_option help_options[] = {
	{ "bash-completion", 'b', false, NULL, 0, NULL, 0,
	  "the bash completion script, from this grammar" },
	{ "man", 'm', false, "TEMPLATE", CMD_ARG_FILE, NULL, 0,
	  "hwxdp(8) from its template (docs/man/hwxdp.8.in), the\n"
	  "synopses and options filled in from this grammar" },
	{ "verbs", 'v', false, NULL, 0, NULL, 0,
	  "the grammar, one \"OBJECT VERB|- [daemon] --OPTION[=ARG] ...\"\n"
	  "a line (for the tests)" },
	{ "dispatch", 'd', false, NULL, 0, NULL, 0,
	  "the verbs the command's dispatch takes, one \"OBJECT VERB\" a\n"
	  "line (for the tests)" },
	{ 0 },
};

static const struct cmd_verb daemon_verbs[] = {
	{ "status", "", "its pid, socket, ports and programs", NULL, NULL, CMD_VERB_DAEMON },
	{ 0 },
};

static const struct cmd_verb flow_verbs[] = {
	{ "list", "", "the microflows the flow maker made, and its counters", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "show", "", "the same as list", NULL, NULL, CMD_VERB_DAEMON | CMD_VERB_ALIAS },
	{ 0 },
};

static const struct cmd_def lif_defs[] = {
	{ "STATE", "enabled|offload-disabled|admin-disabled" },
	{ 0 },
};

static const struct cmd_verb lif_verbs[] = {
	{ "add", "PORT vlan N [mtu M] [state STATE]", "a VLAN of a port, with its TAP", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "set", "PORT vlan N [mtu M] [state STATE]", "a LIF's MTU or state", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "list", "[PORT]", "the LIFs, of every port or of one", NULL, NULL, CMD_VERB_DAEMON },
	{ "show", "[PORT]", "the same as list", NULL, NULL, CMD_VERB_DAEMON | CMD_VERB_ALIAS },
	{ "del", "PORT vlan N", "a VLAN LIF and its TAP", NULL, NULL, CMD_VERB_DAEMON },
	{ 0 },
};

static const struct cmd_verb map_verbs[] = {
	{ "list", "", "the maps of every loaded program", NULL, NULL, CMD_VERB_DAEMON },
	{ "show", "MAP", "one map: its type, sizes and pins", NULL, NULL, CMD_VERB_DAEMON },
	{ "dump", "MAP [target { host | device }]", "every entry of a map", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "lookup", "MAP key BYTES [target { host | device }]", "one entry", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "update", "MAP key BYTES value BYTES [flags { any | noexist | exist }]",
	  "writes an entry, to the kernel's map and the board's table", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "delete", "MAP key BYTES", "removes an entry from both", NULL, NULL, CMD_VERB_DAEMON },
	{ 0 },
};

static const struct cmd_verb port_verbs[] = {
	{ "add", "NAME dev NETDEV [mode { auto | af_xdp | af_packet }] [index N]",
	  "a wire port on a netdev, with its TAP", NULL, NULL, CMD_VERB_DAEMON },
	{ "list", "", "every port", NULL, NULL, CMD_VERB_DAEMON },
	{ "show", "NAME", "one port: its netdev, mode, TAP and program", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "del", "NAME", "a port, its TAPs and its slot", NULL, NULL, CMD_VERB_DAEMON },
	{ 0 },
};

static const struct cmd_verb prog_verbs[] = {
	{ "load", "FILE.o [prog PROG] [name NAME] [port PORT ...]",
	  "verify, translate and load a program onto ports",
	  "Verifies and translates FILE.o for the board (a refusal prints the\n"
	  "verifier's log and changes nothing), loads it into the kernel as the\n"
	  "host copy, pins its maps under /sys/fs/bpf/hwxdp/NAME/ (NAME: the\n"
	  "file's name without .bpf.o) and attaches it to the ports named: the\n"
	  "microcode to their slots, the host copy to their TAPs. PROG names the\n"
	  "object's XDP program the ports run (its function's name), when the\n"
	  "object has several; without it, the first (not one for a devmap or\n"
	  "cpumap entry). Programs of other types in the object are not loaded.\n"
	  "The daemon opens FILE.o itself, by its absolute path: standard input\n"
	  "(-) is refused.\n",
	  NULL, CMD_VERB_DAEMON },
	{ "show", "[NAME]", "the programs hwxdpd has loaded", NULL, NULL, CMD_VERB_DAEMON },
	{ "list", "[NAME]", "the same as show", NULL, NULL, CMD_VERB_DAEMON | CMD_VERB_ALIAS },
	{ "detach", "port PORT", "empties a port's slot and its TAPs' links", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "unload", "NAME", "a program off every port, its pins removed", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "replace", "NAME FILE.o [fresh MAP ...]", "another build in NAME's place, its maps kept",
	  "Puts another build of the program in NAME's place on all its ports, its\n"
	  "maps (and their contents) kept: verified and translated first, then\n"
	  "switched between two frames on the board and atomically through the\n"
	  "TAPs' links. A map of another type or layout is an error before anything\n"
	  "changes, unless named with fresh: then the new build gets it new and\n"
	  "empty, pinned where the old one was, and the board's other tables are\n"
	  "copied into the new build's at the switch. Standard input (-) is\n"
	  "refused, as for load.\n",
	  NULL, CMD_VERB_DAEMON },
	{ "stats", "FILE.o", "issue slots and cycles per lab frame against BPF",
	  "Per frame: BPF instructions executed, HXU operations, issue slots,\n"
	  "cycles. The lab's frames for the forwarding program; for any other, or\n"
	  "with --maps (a state file, as for run), the generic frames on its\n"
	  "tables. FILE.o may be - for standard input.\n",
	  prog_stats_options, 0 },
	{ "dump", "FILE", "the microcode with BPF instructions and source lines",
	  "The microcode bundle by bundle, each operation with its BPF instruction\n"
	  "and source line; FILE a BPF object or an HXU image. With --maps, then\n"
	  "the device's tables as the state file fills them.\n",
	  prog_dump_options, 0 },
	{ "translate", "FILE.o", "the device's microcode as an image file",
	  "The device's microcode as an image file (docs/isa.md section 6); FILE.o\n"
	  "may be - for standard input, OUT.hxu - for standard output.\n",
	  prog_translate_options, 0 },
	{ "prove", "FILE.o", "prove the microcode equal to the program (Z3)",
	  "Proves that the device's microcode for the program does what the\n"
	  "program does, for every frame of 14 to N bytes: the same verdict or\n"
	  "punt, and the same frame on the way out. Prints \"proven\", \"not proven:\n"
	  "REASON\" for what the prover does not model yet, or a counterexample: a\n"
	  "frame, replayed on the BPF reference interpreter and on the device.\n"
	  "Exit status: 0 proven, 1 counterexample or not proven, 70 internal error.\n",
	  prog_prove_options, 0 },
	{ "verify", "FILE.o", "`hwxdp verify`, by its object", NULL, verify_options, 0 },
	{ "run", "[FILE.o]", "`hwxdp run`, by its object", NULL, run_options, 0 },
	{ 0 },
};

static const struct cmd_verb policy_verbs[] = {
	{ "add", "src PREFIX dst PREFIX tunnel IPV4 IPV4 [prog NAME]",
	  "a tunnel policy: these packets through that ESP tunnel", NULL, NULL, CMD_VERB_DAEMON },
	{ "list", "[prog NAME]", "the policies, their SA and the host path's counts", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ "show", "[prog NAME]", "the same as list", NULL, NULL, CMD_VERB_DAEMON | CMD_VERB_ALIAS },
	{ "del", "INDEX [prog NAME]", "a policy", NULL, NULL, CMD_VERB_DAEMON },
	{ 0 },
};

static const struct cmd_verb sa_verbs[] = {
	{ "add",
	  "HANDLE spi SPI src IPV4 dst IPV4 key-file { FILE | - } [lifetime-packets N] "
	  "[lifetime-bytes N] [prog NAME]",
	  "an SA, its key read from a file or standard input", NULL, NULL, CMD_VERB_DAEMON },
	{ "list", "[prog NAME]", "the SAs and their counters", NULL, NULL, CMD_VERB_DAEMON },
	{ "show", "[prog NAME]", "the same as list", NULL, NULL, CMD_VERB_DAEMON | CMD_VERB_ALIAS },
	{ "del", "HANDLE [prog NAME]", "an SA, the tunnel flows naming it first", NULL, NULL,
	  CMD_VERB_DAEMON },
	{ 0 },
};

const struct cmd_object cmd_objects[] = {
	{
		.name = "conformance",
		.fn = do_conformance,
		.summary = "run a raw BPF program the way conformance suites do",
		.synopsis = "[MEMORY_HEX]",
		.description =
			"Runs one raw BPF program as conformance suites (bpf_conformance) ask a\n"
			"plugin to: the program's instructions as hex bytes (\"b7 00 00 00 2a 00 "
			"00\n"
			"00 95 00 00 00 00 00 00 00\") on stdin, or with --program; the memory, "
			"hex\n"
			"bytes too, as the argument. It is verified by hwxdp's verifier for the\n"
			"device, translated and run on the coprocessor model with r1 = the memory\n"
			"and r2 = its length. Prints r0 in hex (\"2a\") and exits 0; exits 1 with "
			"a\n"
			"reason on stderr when the program is refused, cannot be translated or\n"
			"aborts.\n",
		.options = conformance_options,
		.footer = "Suites pass the memory before their options; point them at\n"
			  "tests/conformance/plugin.sh, which runs `hwxdp conformance \"$@\"`:\n"
			  "  bpf_conformance_runner --test_file_directory DIR \\\n"
			  "      --plugin_path tests/conformance/plugin.sh\n",
	},
	{
		.name = "daemon",
		.fn = do_daemon,
		.summary = "what the hwxdpd appliance is doing",
		.description = "What hwxdpd is doing: its pid, socket, ports and programs.\n"
			       "The socket is " HWXDPD_SOCKET_DEFAULT
			       ", or $HWXDP_SOCKET. See hwxdpd(8).\n",
		.verbs = daemon_verbs,
	},
	{
		.name = "flow",
		.fn = do_flow,
		.summary = "the connections hwxdpd's flow maker put on the board",
		.description =
			"The connections the flow maker made on the board, one microflow per\n"
			"direction: what the host routed after a flow-miss punt, with the next\n"
			"hop it chose. Its counters say what it made, aged, flushed (route,\n"
			"neighbour or MTU changes) and left with the host, and why.\n",
		.verbs = flow_verbs,
	},
	{
		.name = "lab",
		.fn = do_lab,
		.summary = "run a program over the built-in lab frames on a target",
		.synopsis = "",
		.description =
			"Runs the forwarding program over the built-in lab frames and prints, for\n"
			"each frame, the verdict, egress port, tag (in>out, VID/PCP), TTL and "
			"punt\n"
			"reason, then the LIF and punt counters.\n",
		.options = lab_options,
	},
	{
		.name = "lif",
		.fn = do_lif,
		.summary = "hwxdpd's logical interfaces: a port's VLANs, with their TAPs",
		.description =
			"Logical interfaces: VLAN 0 is the port itself (its TAP hx<N>); a VLAN "
			"LIF\n"
			"1..4094 gets a TAP hx<N>.<vlan>, the host's VLAN interface, with the "
			"port's\n"
			"MAC and the LIF's MTU (at most the port's). The board hands a VLAN's "
			"punted\n"
			"frames to its TAP untagged and tags what the host sends there. A program\n"
			"with fwd's maps on the port has each LIF in its lifs map: "
			"offload-disabled\n"
			"sends the LIF's frames to the host, admin-disabled drops them (and takes\n"
			"the TAP down).\n",
		.verbs = lif_verbs,
		.defs = lif_defs,
	},
	{
		.name = "map",
		.fn = do_map,
		.summary = "the maps of hwxdpd's programs: dump, lookup, update, delete",
		.description =
			"The maps of the programs hwxdpd has loaded. MAP is PROG/NAME, or NAME "
			"when\n"
			"one program has it. BYTES as bpftool takes them: [hex] BYTE ..., each "
			"BYTE\n"
			"0 to 255 (0x.. hex, 0.. octal; all hex after `hex`). Reads come from the\n"
			"kernel's map (the host copy's, pinned) unless `target device`; writes go "
			"to\n"
			"both the kernel's map and the board's table, or to neither. In a devmap, "
			"a\n"
			"wire port's ifindex is the board's value and its TAP's the kernel's.\n",
		.verbs = map_verbs,
	},
	{
		.name = "port",
		.fn = do_port,
		.summary = "wire ports of hwxdpd on live netdevs, with their TAPs",
		.description =
			"A wire port takes the frames of a Linux netdev (through AF_XDP, else\n"
			"AF_PACKET) onto the board, and gets a TAP hx<N> for the host, up, with\n"
			"the netdev's MTU and MAC (N: the first free index, or the one given).\n"
			"NAME is the port's name in hwxdp (1 to 31 letters, digits, '-', '_', "
			"'.').\n",
		.verbs = port_verbs,
	},
	{
		.name = "policy",
		.fn = do_policy,
		.summary = "tunnel policies: which packets leave through which ESP tunnel",
		.description =
			"Tunnel policies for a program with fwd's sas map: IP packets from src to\n"
			"dst (IPv4 or IPv6 prefixes) leave through the ESP tunnel with these outer\n"
			"IPv4 source and destination, encrypted with the newest SA of that tunnel\n"
			"that can still encrypt (a rekey: sa add of the new SA, then sa del of the\n"
			"old). The flow maker makes their connections as tunnel flows while\n"
			"ipsec_flows is 1; what the host routes of them meanwhile is encrypted by\n"
			"the host path with the same SA, or held when no SA can: never sent in\n"
			"clear. The first policy that takes a packet wins. PROG: the only program\n"
			"with fwd's layout unless named.\n",
		.verbs = policy_verbs,
	},
	{
		.name = "prog",
		.fn = do_prog_any,
		.summary = "load programs onto hwxdpd's ports; what a program costs, its microcode",
		.description =
			"load, show, list, detach, unload and replace act on the programs of\n"
			"hwxdpd's ports (`hwxdp prog help live` lists them alone); stats, dump,\n"
			"translate, prove, verify and run need neither the daemon nor a kernel.\n"
			"An abbreviation both kinds have (s, d) is an offline command's.\n",
		.verbs = prog_verbs,
	},
	{
		.name = "run",
		.fn = do_run,
		.summary = "run a program on the coprocessor model over pcap captures, offline",
		.synopsis = "[FILE.o]",
		.description =
			"Runs XDP programs on the coprocessor model, offline: every frame of the\n"
			"captures arrives on a wire port and runs the program of that port on one\n"
			"of K engines; forwarded frames (tx, redirect) go to OUT.pcap and punted "
			"ones\n"
			"(pass) to PUNT.pcap, in arrival order, with their timestamps. No root "
			"needed.\n"
			"FILE.o is the program of every port without one of its own.\n",
		.options = run_options,
	},
	{
		.name = "sa",
		.fn = do_sa,
		.summary = "ESP tunnel SAs on hwxdpd's board: add (key from a file), list, del",
		.description =
			"ESP tunnel SAs on the board (AES-GCM, RFC 4106) for a program with fwd's\n"
			"sas map. The key is read from FILE, or from standard input with '-', as\n"
			"hex of the AES key (16, 24 or 32 bytes) followed by the 4-byte salt, as\n"
			"ip xfrm takes rfc4106(gcm(aes)); never from the command line, where ps\n"
			"shows it. The board counts each SA's packets and bytes and refuses a\n"
			"frame past a lifetime. del takes the tunnel flows naming the SA off the\n"
			"board first. PROG: the only program with fwd's layout unless named.\n",
		.verbs = sa_verbs,
	},
	{
		.name = "stats",
		.fn = do_stats,
		.summary = "the board's counters in hwxdpd",
		.synopsis = "",
		.description =
			"The board's counters since hwxdpd started: frames, verdicts, punts by\n"
			"reason number, cycles, and the same per port.\n",
	},
	{
		.name = "verify",
		.fn = do_verify,
		.summary = "prove the programs of a BPF object safe, without a kernel",
		.synopsis = "FILE.o",
		.description =
			"Proves every program of FILE.o (or the one named) safe with hwxdp's own\n"
			"verifier, without a kernel. Exit 0 when all are accepted, 1 otherwise,\n"
			"with the log of each rejection. FILE.o may be - for standard input.\n",
		.options = verify_options,
		.footer = "Exit status: 0 accepted, 1 rejected, 2 cannot open or no such program,\n"
			  "64 usage.\n",
	},
	{
		.name = "version",
		.fn = do_version,
		.summary = "print the version",
		.synopsis = "",
		.description =
			"The version, the libraries (libbpf, libcrypto, libpcap, z3) and the\n"
			"features built in.\n",
	},
	{
		.name = "help",
		.fn = do_help,
		.summary = "print this help",
		.synopsis = "",
		.description = "The objects and the options before them.\n",
		.options = help_options,
	},
	{ 0 },
};

const struct cmd_object *cmd_object_find(const char *name)
{
	for (const struct cmd_object *o = cmd_objects; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

const struct cmd_verb *cmd_verb_find(const struct cmd_object *o, const char *word)
{
	const struct cmd_verb *match = NULL;
	size_t len = strlen(word);

	if (!o->verbs || !len)
		return NULL;
	for (const struct cmd_verb *v = o->verbs; v->name; v++) {
		if (!strcmp(v->name, word))
			return v;
		if (!strncmp(v->name, word, len)) {
			if (match)
				return NULL;
			match = v;
		}
	}
	return match;
}

/* The argument kinds, by the placeholder's name. */
enum cmd_arg_kind cmd_arg_kind(const struct cmd_object *o, const char *word, const char **choices)
{
	static const char *const files[] = { "FILE",	  "FILE.o",  "IN.pcap", "OUT.pcap",
					     "PUNT.pcap", "OUT.hxu", "STATE",	"STATE.json",
					     "TEMPLATE",  NULL };
	static const char *const numbers[] = { "N", "M", "K", "T", "SPI", "HANDLE", NULL };

	*choices = NULL;
	for (const struct cmd_def *d = o ? o->defs : NULL; d && d->name; d++) {
		if (!strcmp(d->name, word)) {
			*choices = d->choices;
			return CMD_ARG_CHOICE;
		}
	}
	for (int i = 0; files[i]; i++)
		if (!strcmp(word, files[i]))
			return CMD_ARG_FILE;
	for (int i = 0; numbers[i]; i++)
		if (!strcmp(word, numbers[i]))
			return CMD_ARG_NUMBER;
	if (!strcmp(word, "NETDEV"))
		return CMD_ARG_NETDEV;
	if (!strcmp(word, "PORT"))
		return CMD_ARG_PORT;
	return CMD_ARG_WORD;
}

/* A synopsis in tokens: words, and [ ] { } | ... on their own. */
void cmd_tokenize(const char *s, struct cmd_tokens *t)
{
	t->cnt = 0;
	while (s && *s) {
		size_t len;
		const char *end;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		len = strcspn(s, " ");
		end = s + len;
		while (s < end && (*s == '[' || *s == '{') && t->cnt < CMD_TOKENS_MAX) {
			snprintf(t->tok[t->cnt++], CMD_TOKEN_LEN, "%c", *s);
			s++;
		}
		{
			const char *w = s, *we = end;
			int closers = 0;

			while (we > w && (we[-1] == ']' || we[-1] == '}'))
				we--, closers++;
			if (we > w && t->cnt < CMD_TOKENS_MAX)
				snprintf(t->tok[t->cnt++], CMD_TOKEN_LEN, "%.*s", (int)(we - w), w);
			for (int i = 0; i < closers && t->cnt < CMD_TOKENS_MAX; i++)
				snprintf(t->tok[t->cnt++], CMD_TOKEN_LEN, "%c", we[i]);
		}
		s = end;
	}
}

bool cmd_is_placeholder(const char *w)
{
	/* the first letter says: FILE.o, [IFINDEX:]IN.pcap */
	for (; *w; w++)
		if (isalpha((unsigned char)*w))
			return isupper((unsigned char)*w);
	return false;
}

bool cmd_is_keyword(const char *w)
{
	return islower((unsigned char)w[0]);
}

/* How many choices "a|b|c" has. */
int cmd_choice_count(const char *choices)
{
	int n = 1;

	for (; *choices; choices++)
		n += *choices == '|';
	return n;
}

/* "a|b" as "{ a | b }" into buf. */
void cmd_choice_text(const char *choices, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "{ ");

	for (const char *c = choices; *c && at < len; c++)
		at += (size_t)snprintf(buf + at, len - at, *c == '|' ? " | " : "%c", *c);
	if (at < len)
		snprintf(buf + at, len - at, " }");
}
