// SPDX-License-Identifier: MIT
/* sdnotify.h - the one message forkless sends to systemd's service
 * manager: EXTEND_TIMEOUT_USEC (sd_notify(3)), so that a long start or
 * stop of a unit with NotifyAccess= set is not killed at its timeout.
 * Knows no applet; no heap, no stdio.
 */
#ifndef FORKLESS_SDNOTIFY_H
#define FORKLESS_SDNOTIFY_H

#include <stdint.h>

/* "EXTEND_TIMEOUT_USEC=usec" as one datagram to $NOTIFY_SOCKET (a path,
 * or '@' and an abstract name), as sd_notify() sends it: the manager then
 * lets the current start or stop run for at least usec from now. 0 sent,
 * or nothing to do (no NOTIFY_SOCKET, or not a unix address); -errno
 * (-ENAMETOOLONG: an address longer than sun_path). Three syscalls when
 * NOTIFY_SOCKET is set (socket, sendto, close), none otherwise. */
int sd_notify_extend_timeout(uint64_t usec);

#endif
