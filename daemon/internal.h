/* SPDX-License-Identifier: GPL-2.0 */
/* The daemon's state, shared by its files; nothing outside daemon/ sees it. */
#ifndef HWXDP_DAEMON_INTERNAL_H
#define HWXDP_DAEMON_INTERNAL_H

#include <limits.h>
#include <net/if.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "daemon/daemon.h"
#include "daemon/jbuf.h"
#include "daemon/proto.h"
#include "hwmap/hxu.h"

#define HWXDPD_CONNS_MAX 32
#define HWXDPD_PORTS_MAX 64
#define HWXDPD_PROGS_MAX 16
#define HWXDPD_NAME_MAX	 32
#define HWXDPD_VLANS_MAX 64 /* VLAN LIFs per port */
#define HWXDPD_MMAPS_MAX 16 /* a program's arrays shared with the kernel */

struct wire;
struct bpf_object;
struct bpf_link;
struct hwxdp_device;
struct dataplane;
struct fwd_maps;
struct flow_maker;
struct mirror;
struct hwxdp_esp_sa;
struct policy;

enum conn_state {
	CONN_FREE,
	CONN_READING,
	CONN_WRITING,
};

struct conn {
	enum conn_state state;
	int fd;
	uint32_t uid;
	struct hwxdp_ctl_hdr hdr;
	size_t got; /* bytes of header then payload so far */
	uint8_t *payload;
	uint8_t *out; /* the reply being written */
	size_t out_len, out_done;
	bool close_after; /* the reply reports a framing error */
	int64_t deadline_ms;
};

struct port_counters {
	_Atomic uint64_t rx, rx_bytes; /* from the wire */
	_Atomic uint64_t tx, tx_bytes; /* to the wire, from the board */
	_Atomic uint64_t punted;       /* to the TAP, from the board */
	_Atomic uint64_t dropped;      /* XDP_DROP, XDP_ABORTED, redirects nowhere */
	_Atomic uint64_t host_tx;      /* from the TAP to the wire */
	_Atomic uint64_t errors;       /* frames a socket or the TAP refused */
	_Atomic uint64_t tunnel_held;  /* a tunnel flow's frames not encrypted: not sent */
};

/* A VLAN LIF of a port, with its TAP hx<N>.<vlan>; VLAN 0, the port
 * itself, is the port's own TAP. */
struct lif {
	bool used;
	uint16_t vlan;
	uint32_t state; /* enum hwxdp_lif_state */
	uint32_t mtu;
	int tap_fd;
	char tap[IF_NAMESIZE];
	uint32_t tap_ifindex;
	struct bpf_link *link; /* the host copy on the TAP */
	_Atomic uint64_t punted, host_tx, errors;
};

struct port {
	bool used;
	uint32_t index; /* N of hx<N> */
	char name[HWXDPD_NAME_MAX];
	char dev[IF_NAMESIZE];
	uint32_t ifindex; /* the wire netdev's: the board's port number */
	uint8_t mac[6];
	uint32_t mtu;
	struct wire *wire;
	int tap_fd;
	char tap[IF_NAMESIZE];
	uint32_t tap_ifindex;
	int prog;	       /* index into progs, -1 for none */
	struct bpf_link *link; /* the host copy on the TAP */
	uint32_t lif_state;    /* VLAN 0's, enum hwxdp_lif_state */
	struct port_counters c;
	_Atomic uint64_t unknown_vlan; /* punted tagged, no LIF: to hx<N> as they came */
	struct lif vlans[HWXDPD_VLANS_MAX];
	uint8_t vlan_slot[4096]; /* VID -> 1 + index into vlans, 0 for none */
};

struct prog {
	bool used;
	char name[HWXDPD_NAME_MAX];
	char path[PATH_MAX];
	/* The object's XDP program the ports run (`prog PROG`); "": its first. */
	char bpf_prog[HXU_NAME_MAX];
	uint32_t device_id;
	struct bpf_object *host;
	char pin_dir[PATH_MAX];
	uint32_t insns, words;
	int64_t loaded_at; /* time(NULL) of its load or last replace */
	uint32_t replaces; /* how often another build took its place */
	/* Arrays the kernel map and the board's table share by mmap. */
	struct {
		void *mem;
		size_t len;
		char name[HXU_NAME_MAX];
	} mm[HWXDPD_MMAPS_MAX];
	int mm_cnt;
	/* The last replace, in microseconds: the new build's load (reading,
	 * the device's verification, the translation, the board's install;
	 * the kernel's load of the host copy), then the switch: from the
	 * request to the slots, from the slots to the first frame the new
	 * build ran on the board (set by the board thread while swap_watch
	 * names it), and the TAPs' links after. */
	struct {
		int64_t request_us, slots_us;
		uint64_t open_us, verify_us, translate_us, install_us, host_us;
		uint64_t links_us, first_frame_us;
		bool first_seen;
	} swap;
	uint32_t swap_watch;	  /* the new build's board id, or HWXDP_DEVICE_PROG_NONE */
	struct fwd_maps *fwd;	  /* fwd's maps, when the program has its layout */
	struct hwxdp_esp_sa **sa; /* by handle: the board's SAs (daemon/sa.c) */
	uint64_t *sa_serial;	  /* by handle: the order they were added in */
	struct policy *pol;	  /* tunnel policies (daemon/policy.c) */
	struct mirror *mirror;	  /* hash maps, mirrored board <-> kernel */
};

struct hwxdpd {
	char socket_path[PATH_MAX];
	char socket_dir[PATH_MAX];
	bool made_dir;
	char pin_root[PATH_MAX];
	bool made_pin_root;
	int listen_fd;
	int stop_fd; /* eventfd: hwxdpd__stop */
	uint32_t frame_ms, idle_ms;
	uint32_t flow_idle_ms; /* a made flow without frames this long goes */
	bool allow_any_uid;
	struct conn conns[HWXDPD_CONNS_MAX];
	uint32_t engines;
	int64_t started; /* time(NULL) at hwxdpd__new */
	/* The configuration for a restart (daemon/state.c): its file, what
	 * was written last, and whether a restart is being replayed (TAPs and
	 * pins of the killed daemon are then taken back, not refused). */
	char state_path[PATH_MAX];
	char *state_text;
	char *sas_text;		  /* the SA file as written last (keys: wiped when freed) */
	pthread_mutex_t sas_lock; /* the SA file's writers: commands, upkeep */
	bool restoring;

	/* Ports and programs: the control thread changes them under lock,
	 * the board thread reads them under it. */
	pthread_mutex_t lock;
	struct hwxdp_device *board;
	struct port ports[HWXDPD_PORTS_MAX];
	struct prog progs[HWXDPD_PROGS_MAX];
	/* The board thread: started with the first port. */
	pthread_t dp_thread;
	struct dataplane *dp;
	bool dp_started;
	atomic_bool dp_stop;
	int dp_wake_fd;		     /* eventfd: the port set changed */
	_Atomic uint32_t generation; /* bumped at each change of the port set */
	/* The flow maker and the mirrors: the housekeeping thread, under lock. */
	struct flow_maker *flows;
	pthread_t hk_thread;
	bool hk_started;
	int hk_stop_fd; /* eventfd */
};

/* CLOCK_MONOTONIC in microseconds: what a swap takes. */
static inline int64_t hwxdpd_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* CLOCK_MONOTONIC in milliseconds: deadlines, ticks, flow ages. */
static inline int64_t hwxdpd_now_ms(void)
{
	return hwxdpd_now_us() / 1000;
}

/* The one parser of the command words: status (0 or -errno), a one-line
 * message, a JSON body. Runs with d->lock not held. */
int hwxdpd_dispatch(struct hwxdpd *d, int argc, const char **argv, struct jbuf *body, char *msg,
		    size_t msglen);

/* Ports (daemon/port.c) and programs (daemon/prog.c); called with the lock
 * held. */
/* index: the N of hx<N>, or -1 for the first free one. */
int port_add(struct hwxdpd *d, const char *name, const char *dev, const char *mode, int index,
	     char *msg, size_t msglen);
int port_del(struct hwxdpd *d, struct port *p, char *msg, size_t msglen);
struct port *port_by_name(struct hwxdpd *d, const char *name);
void port_json(struct hwxdpd *d, const struct port *p, struct jbuf *b);
void ports_free(struct hwxdpd *d);

/* bpf_prog: the object's XDP program the ports run; NULL: its first. */
int prog_load(struct hwxdpd *d, const char *path, const char *name, const char *bpf_prog,
	      const char **ports, int port_cnt, struct jbuf *body, char *msg, size_t msglen);
/* fresh: maps the new build gets new and empty (their layout may differ);
 * the others are kept with their contents. */
int prog_replace(struct hwxdpd *d, const char *name, const char *path, const char **fresh,
		 int fresh_cnt, struct jbuf *body, char *msg, size_t msglen);
int prog_detach(struct hwxdpd *d, struct port *p, char *msg, size_t msglen);
int prog_unload(struct hwxdpd *d, struct prog *pr, char *msg, size_t msglen);
struct prog *prog_by_name(struct hwxdpd *d, const char *name);
void prog_json(struct hwxdpd *d, const struct prog *pr, struct jbuf *b);
void progs_free(struct hwxdpd *d);

/* LIFs (daemon/lif.c), with the lock held. */
struct lif *lif_by_vlan(struct port *p, uint32_t vlan);
int lif_add(struct hwxdpd *d, struct port *p, uint32_t vlan, int64_t mtu, int64_t state, char *msg,
	    size_t msglen);
int lif_set(struct hwxdpd *d, struct port *p, uint32_t vlan, int64_t mtu, int64_t state, char *msg,
	    size_t msglen);
int lif_del(struct hwxdpd *d, struct port *p, uint32_t vlan, char *msg, size_t msglen);
void lifs_free(struct hwxdpd *d, struct port *p);
void lif_json(struct hwxdpd *d, const struct port *p, uint32_t vlan, struct jbuf *b);
const char *lif_state_name(uint32_t state);
int lif_state_parse(const char *word);
/* The state a LIF has on the wire: VLAN 0 is the port's. */
uint32_t lif_state_of(const struct port *p, uint32_t vlan);

/* The host copy on a TAP (daemon/prog.c): attaches or replaces. */
int host_attach(struct hwxdpd *d, struct prog *pr, struct bpf_link **link, uint32_t ifindex,
		const char *tap, char *msg, size_t msglen);

/* The upkeep thread (daemon/upkeep.c). */
int upkeep_start(struct hwxdpd *d);
void upkeep_stop(struct hwxdpd *d);

/* The board thread (daemon/dataplane.c). */
int dataplane_start(struct hwxdpd *d);
void dataplane_stop(struct hwxdpd *d);
void dataplane_changed(struct hwxdpd *d);

#endif /* HWXDP_DAEMON_INTERNAL_H */
