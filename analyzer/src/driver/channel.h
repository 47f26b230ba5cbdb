/* analyzer/src/driver/channel.h — framed messages over a stream socket between tagcheck and
 * its child processes (unit workers, isolated analyses): a 64-bit length, then the bytes.
 * Sends never raise SIGPIPE; receives wait at most until a deadline. */
#ifndef TC_CHANNEL_H
#define TC_CHANNEL_H

#include <stddef.h>

#include "base/bytes.h"

/* Seconds on a monotonic clock. */
double tc_now_s(void);

/* Sends one frame. Returns 0, or -1 (the peer is gone). */
int tc_chan_send(int fd, const void *data, size_t len);

/* Receives one frame into *b (reset first) waiting until deadline (tc_now_s() scale; 0: no
   limit). Returns 0; 1 at end of stream (the peer exited); 2 past the deadline; -1 on an
   error or an impossible length. */
int tc_chan_recv(int fd, double deadline, tc_bbuf *b);

#endif /* TC_CHANNEL_H */
