/*
 * The link server's wire protocol, client side. The Java side is org.offlink.server.protocol;
 * ProtocolConstantsTest checks that the two agree on every constant below.
 *
 * A connection carries frames in both directions:
 *
 *   offset  size  field
 *   0       4     length L of what follows (type + payload), big-endian, 1 <= L <= the limit
 *   4       1     type (one ASCII letter, below)
 *   5       L-1   payload
 *
 * Every integer is big-endian. A byte string is a 4-byte length and that many bytes.
 * The first frame from the client is REQUEST, STATUS or STOP; the server answers a REQUEST with
 * ACCEPTED (the link now runs: it is never run again elsewhere) or REFUSED (nothing ran: the
 * client may run the link itself), then OUT/ERR/... and finally EXIT.
 */
#ifndef OFFLINK_PROTOCOL_H
#define OFFLINK_PROTOCOL_H

#define OFL_PROTOCOL_VERSION 1
#define OFL_REQUEST_MAGIC "OFLK"

/* The largest REQUEST frame (argv and environment together: execve's own limit is far lower). */
#define OFL_MAX_REQUEST (16u * 1024u * 1024u)
/* The largest of every other frame; writers cut data into pieces of OFL_DATA_CHUNK at most. */
#define OFL_MAX_FRAME (1024u * 1024u)
#define OFL_DATA_CHUNK (64u * 1024u)

/* Client to server. */
#define OFL_REQUEST 'Q' /* the link: see the REQUEST layout in client.c (request_build) */
#define OFL_STATUS 'S'  /* u16 version: the server answers STATUS_TEXT and closes */
#define OFL_STOP 'X'    /* u16 version: the server stops accepting, ends when idle */
#define OFL_STDIN 'I'   /* bytes of stdin, after WANT_STDIN; an empty one is end of file */
#define OFL_CANCEL 'K'  /* u8 signal number: end the link as that signal would have */

/* Server to client. */
#define OFL_ACCEPTED 'A'    /* u32 server pid: the link runs */
/* To the client that started the server, on the socket pair it handed over (spawn.c) only. */
#define OFL_READY 'Y'     /* u32 server pid: the server is up and reads the first frame */
#define OFL_LISTENING 'L' /* the server's socket is in place: let the waiting clients in */
#define OFL_REFUSED 'R'     /* u8 reason, UTF-8 text: nothing ran */
#define OFL_OUT 'O'         /* bytes for stdout */
#define OFL_ERR 'E'         /* bytes for stderr */
#define OFL_WANT_STDIN 'W'  /* the link reads stdin: relay it */
#define OFL_CHILD_GROUP 'P' /* u32 process group of the link's children */
#define OFL_CHILD_DONE 'D'  /* u32 that group's leader has been waited for */
#define OFL_TEMP_FILE 'F'   /* bytes: a file of the link to remove if the server vanishes */
#define OFL_TEMP_DONE 'G'   /* bytes: that file is no longer the client's to remove */
#define OFL_EXIT 'Z'        /* u8 exit status of the link */
#define OFL_STATUS_TEXT 'T' /* UTF-8 key=value lines */

/* REFUSED reasons. */
#define OFL_REFUSE_IDENTITY 1    /* another build, JVM or JVM options (or its files changed) */
#define OFL_REFUSE_BAD_REQUEST 2 /* the request broke the protocol */
#define OFL_REFUSE_PEER 3        /* the client is another user */

/* REQUEST tool codes. */
#define OFL_TOOL_LTO_WRAPPER 1
#define OFL_TOOL_MKOFFLOAD_NVPTX 2
#define OFL_TOOL_MKOFFLOAD_GCN 3

#endif
