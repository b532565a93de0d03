/* tputnorm: the normalize stage: what a log line carries before its message (ANSI escapes,
 * rank, host and docker prefixes, timestamps) read and taken off. */
#ifndef SIFT_TPUTNORM_H
#define SIFT_TPUTNORM_H

#include <stddef.h>

/* Remove ANSI escape sequences in place; returns the new length. */
size_t tputnorm_strip_ansi(char *text, size_t len);
/* A rank prefix at the start ("[rank3]:", "[default7]:", "[Rank 3]", "0: ", srun's padded
 * " 0: ", "worker-0:"): bytes it takes (0 when none), rank in *rank. */
size_t tputnorm_rank_prefix(const char *text, size_t len, long *rank);
/* "HOST:N" right after a line's timestamp (OLMo's "TIME\tHOST:LOCAL_RANK\t"), after blanks:
 * the host has a digit, '-' or '.' or is "host"/"localhost", N is followed by a blank. Bytes
 * up to N's end (0 when none), N in *rank. */
size_t tputnorm_host_rank(const char *text, size_t len, long *rank);
/* A timestamp at the start (ISO 8601, "2024-05-01 12:00:00,123", glog "I0501 12:00:00.123456",
 * "05/01/2024 12:00:00"), optionally after "[": bytes it takes (0 when none), seconds since
 * the epoch (UTC; glog has no year, 1970 is assumed) in *seconds. */
size_t tputnorm_timestamp(const char *text, size_t len, double *seconds);
/* The first timestamp in a line's first 96 bytes, after tags, brackets and spaces ("[titan]
 * 2024-05-01 ...", " [2024-04-06 02:59:36]", "[INFO 2020-06-08 ...", "> 2023-03-22 ..."),
 * also yearless "MM-DD HH:MM:SS" and "MM/DD/YY HH:MM:SS" (1970 assumed): where it ends (0
 * when none), its seconds in *seconds. */
size_t tputnorm_timestamp_end(const char *text, size_t len, double *seconds);
/* tputnorm_timestamp_end's answer as found or not: 1 when found. */
int tputnorm_find_timestamp(const char *text, size_t len, double *seconds);

#endif
