/*
 * What a guest says to kbench over its serial port: records, each one
 * line of text, "kbench TAG INDEX LEN CRC HEX\n", whose payload (LEN
 * bytes, as hex) is the worker's own wire format (core/wire.h) or the
 * guest's description.  Text, because a serial line and the tty under it
 * may add a carriage return or drop a byte; a CRC-32 a record, because a
 * damaged figure must fail loudly rather than be stored.  The guest's
 * init writes them (console_put); kbench reads the port's whole output
 * after the guest powered off (console_parse), and the kernel's console
 * for why a guest stopped without them (console_panic).  Nothing here
 * allocates on the writing side, which runs as the guest's PID 1.
 */
#ifndef KB_GUEST_CONSOLE_H
#define KB_GUEST_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

/* The records' tags. */
#define CONSOLE_SYS "sys"	/* the guest: build id, struct wire_prelude, struct sysinfo */
#define CONSOLE_RES "res"	/* request INDEX's reply, as the worker wrote it */
#define CONSOLE_DIED "died"	/* request INDEX's worker gave no reply: text saying how it ended */
#define CONSOLE_ERR "err"	/* the init could not go on: text */
#define CONSOLE_END "end"	/* every request done; INDEX is how many */

/* The largest payload a record may carry: a result with its samples is far less. */
#define CONSOLE_MAX (16u << 20)

/* CRC-32 (IEEE 802.3, as zlib's crc32) of len bytes. */
uint32_t console_crc32(const void *data, size_t len);
/*
 * Write one record to fd: 0, or -1 with errno.  The line is written in
 * pieces of a few KiB, so a payload needs no buffer of its size.
 */
int console_put(int fd, const char *tag, unsigned index, const void *data, size_t len);

/* One record read back: its payload malloc'd (with a NUL after it, for the text ones). */
struct console_rec {
	char tag[8];
	unsigned index;
	unsigned char *data;
	size_t len;
};
/*
 * The records in len bytes of a port's output, in order, into *recs
 * (malloc'd, *n of them); lines that are not records (a kernel's message
 * on a shared port) are passed over.  0, or -1 with err (ERRBUF_LEN) on a
 * damaged record (its length or CRC do not match) or without memory.
 */
int console_parse(const char *buf, size_t len, struct console_rec **recs, size_t *n, char *err);
void console_free(struct console_rec *recs, size_t n);
/*
 * Whether a kernel's console output says it panicked: 1 with the panic's
 * line (from "Kernel panic", without the line's end) in line, else 0.
 */
int console_panic(const char *buf, size_t len, char *line, size_t linelen);
/* The console's last line that is not empty, into line ("" when none). */
void console_last_line(const char *buf, size_t len, char *line, size_t linelen);

#endif
