/*
 * Delays every packet of one netfilter queue by a fixed time, then lets it through: the
 * kernel's netem qdisc is not built into this machine's kernel, so a packet is held in the
 * kernel's NFQUEUE until this program gives its verdict. Packets keep their order (the delay
 * is the same for all); a full queue lets packets through rather than dropping them.
 *
 * usage: netdelay QUEUE_NUMBER DELAY_MS
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>

#define CAPACITY 65536

static uint32_t ids[CAPACITY];
static long long due[CAPACITY];
static unsigned head, tail;
static long long delay_ns;

static long long now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int on_packet(struct nfq_q_handle *queue, struct nfgenmsg *message, struct nfq_data *data, void *unused) {
	struct nfqnl_msg_packet_hdr *header = nfq_get_msg_packet_hdr(data);
	uint32_t id = ntohl(header->packet_id);
	if (tail - head >= CAPACITY) {
		return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL);
	}
	ids[tail % CAPACITY] = id;
	due[tail % CAPACITY] = now_ns() + delay_ns;
	tail++;
	return 0;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s QUEUE_NUMBER DELAY_MS\n", argv[0]);
		return 2;
	}
	int number = atoi(argv[1]);
	delay_ns = atoll(argv[2]) * 1000000LL;
	struct nfq_handle *handle = nfq_open();
	if (handle == NULL) {
		perror("nfq_open");
		return 1;
	}
	struct nfq_q_handle *queue = nfq_create_queue(handle, number, &on_packet, NULL);
	if (queue == NULL) {
		perror("nfq_create_queue");
		return 1;
	}
	nfq_set_mode(queue, NFQNL_COPY_META, 0);
	nfq_set_queue_maxlen(queue, CAPACITY);
	nfq_set_queue_flags(queue, NFQA_CFG_F_FAIL_OPEN, NFQA_CFG_F_FAIL_OPEN);
	int fd = nfq_fd(handle);
	char buffer[65536];
	for (;;) {
		int timeout = -1;
		if (head != tail) {
			long long wait = due[head % CAPACITY] - now_ns();
			timeout = (wait <= 0) ? 0 : (int) ((wait + 999999) / 1000000);
		}
		struct pollfd ready = { .fd = fd, .events = POLLIN };
		if (poll(&ready, 1, timeout) > 0) {
			int length = recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
			if (length > 0) {
				nfq_handle_packet(handle, buffer, length);
			}
			else if (length < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EINTR) {
				perror("recv");
				return 1;
			}
		}
		long long now = now_ns();
		while (head != tail && due[head % CAPACITY] <= now) {
			nfq_set_verdict(queue, ids[head % CAPACITY], NF_ACCEPT, 0, NULL);
			head++;
		}
	}
}
