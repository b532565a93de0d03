/* capture: run a function in a child process with stdout and stderr caught, so that exit
 * paths (usage errors, --strict, write errors) and messages can be asserted exactly. */
#ifndef SIFT_TEST_CAPTURE_H
#define SIFT_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

struct captured {
	int status;       /* exit status, or 128 + signal */
	char out[1 << 16];
	size_t out_len;
	char err[1 << 16];
	size_t err_len;
};

static inline size_t capture_slurp(FILE *f, char *buf, size_t cap)
{
	rewind(f);
	size_t n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n;
}

/* fn runs in a child; returning from it is exit status 0. */
static inline void capture_run(void (*fn)(void *), void *arg, struct captured *c)
{
	FILE *out = tmpfile(), *err = tmpfile();
	if (!out || !err)
		abort();
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(0);
	}
	int ws = 0;
	waitpid(pid, &ws, 0);
	c->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	c->out_len = capture_slurp(out, c->out, sizeof c->out);
	c->err_len = capture_slurp(err, c->err, sizeof c->err);
}

#endif
