/* test_tput: the extractor's stages together: presets against real and constructed lines, records
 * over lines, copies, bars; each stage alone has its own test_tput<stage>.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tput.h"

static int close_to(double a, double b) { return fabs(a - b) < 1e-6 * (1 + fabs(b)); }
#define near(a, b) assert_true(close_to((a), (b)))

struct got {
	enum tput_result res[32];
	struct tput_point pt[32];
	unsigned long lineno[32];
	int n, left;
};

static void collect(void *ctx, unsigned long lineno, enum tput_result res, const struct tput_point *pt,
		    const char *reason)
{
	struct got *g = ctx;
	(void)reason;
	if (res == TPUT_LEFT) {  /* what was left out is counted apart (test_left) */
		g->left++;
		return;
	}
	assert_true(g->n < 32);
	g->lineno[g->n] = lineno;
	g->res[g->n] = res;
	if (pt)
		g->pt[g->n] = *pt;
	g->n++;
}

/* Run one line through every preset (or one by name); the line is copied: it is edited in place. */
static struct got run(const char *preset, const char *line)
{
	tput_ex *ex = tput_ex_new();
	if (preset)
		tput_ex_add_preset(ex, (size_t)tputpreset_find(preset));
	else
		for (size_t i = 0; i < tputpreset_count; i++)
			tput_ex_add_preset(ex, i);
	struct got g = { .n = 0 };
	char *copy = strdup(line);
	tput_ex_line(ex, copy, strlen(line), 1, collect, &g);
	tput_ex_finish(ex, collect, &g);  /* a bar's one frame counts at the end */
	/* Every preset added in order: a point's rule index is its preset's index (by_rule). */
	for (int k = 0; !preset && k < g.n; k++)
		if (g.res[k] == TPUT_POINT)
			assert_int_equal(tputpreset_find(tput_ex_rule_name(ex, (size_t)g.pt[k].rule)), g.pt[k].rule);
	free(copy);
	tput_ex_free(ex);
	return g;
}

/* The point a rule gave (its preset's index), or -1. */
static int by_rule(const struct got *g, int rule)
{
	for (int k = 0; k < g->n; k++)
		if (g->res[k] == TPUT_POINT && g->pt[k].rule == rule)
			return k;
	return -1;
}

/* A text read as one block by every preset (finished: what waits at its end settled), and
 * the copies and inference lines it counted (when asked). */
static struct got read_text(const char *text, int finish, size_t *copies, size_t *inference)
{
	tput_ex *ex = tput_ex_new();
	for (size_t i = 0; i < tputpreset_count; i++)
		tput_ex_add_preset(ex, i);
	char *copy = strdup(text);
	struct got g = { .n = 0 };
	tput_ex_block(ex, copy, strlen(copy), 1, collect, &g);
	if (finish)
		tput_ex_finish(ex, collect, &g);
	if (copies)
		*copies = tput_ex_copies(ex);
	if (inference)
		*inference = tput_ex_inference_lines(ex);
	free(copy);
	tput_ex_free(ex);
	return g;
}

/* The line's points are sorted by unit: other figures of the line may come first. */
static void expect(const char *preset, const char *line, double value, enum tput_unit unit,
		   long long step, double loss)
{
	struct got g = run(NULL, line);
	int k = by_rule(&g, tputpreset_find(preset));  /* auto picks this preset */
	assert_true(k >= 0);
	assert_int_equal(g.res[k], TPUT_POINT);
	near(g.pt[k].value, value);
	assert_int_equal(g.pt[k].unit, unit);
	assert_true(g.pt[k].step == step);
	if (isnan(loss))
		assert_true(isnan(g.pt[k].loss));
	else
		near(g.pt[k].loss, loss);
	for (int j = 1; j < g.n; j++)
		assert_true(g.pt[j - 1].unit < g.pt[j].unit);
	g = run(preset, line);   /* and the preset alone agrees */
	assert_int_equal(g.n, 1);
	near(g.pt[0].value, value);
}

/* Every figure a line holds: the preset's and the key/value reader's, one per unit. */
static void expect_all(const char *line, int n, const enum tput_unit *units, const double *values)
{
	struct got g = run(NULL, line);
	assert_int_equal(g.n, n);
	for (int k = 0; k < n; k++) {
		assert_int_equal(g.res[k], TPUT_POINT);
		assert_int_equal(g.pt[k].unit, units[k]);
		near(g.pt[k].value, values[k]);
	}
}

static void test_every_preset_example(void **state)
{
	(void)state;
	static const double values[] = { 3.462, 402.1, 5856, 120.52, 1023456, 529882, 368.46, 35.55, 7.2,
					 5.97, 49.2, 83.48609168106144, 51234, 6640.1, 36.722, 1249, 43200,
					 4320, 593, 554.40, 13138.344759, 613.93, 33.7, 155825.3348, 26676, 12345.67, 31.46, 4632, 13.63, 139.6, 22885,
					 5092, 45.02, 2925.0, 2.467, 14500, 10700 };
	assert_int_equal(tputpreset_count, sizeof values / sizeof values[0]);
	for (size_t i = 0; i < tputpreset_count; i++) {
		struct got g = run(tputpreset_table[i].name, tputpreset_table[i].example);
		/* the key/value reader's presets give every figure of the line, the first checked */
		assert_true(g.n == 1 || (g.n > 1 && tputpreset_table[i].reader == TPUT_READ_KV));
		assert_int_equal(g.res[0], TPUT_POINT);
		near(g.pt[0].value, values[i]);
		/* auto-detection gives the example to its own preset */
		g = run(NULL, tputpreset_table[i].example);
		int k = by_rule(&g, (int)i);
		assert_true(k >= 0);
		near(g.pt[k].value, values[i]);
	}
}

static void test_presets_on_table_lines(void **state)
{
	(void)state;
	expect("megatron", " iteration       80/    1000 | consumed samples:          320 | elapsed time per iteration (ms): 1622.8 | learning rate: 1.485E-04 | global batch size:     4 | lm loss: 8.284489E+00 | loss scale: 16384.0 | grad norm: 3.708 |",
	       1622.8, TPUT_MS_STEP, 80, 8.284489);
	expect("megatron", " iteration       20/ 1000 | elapsed time per iteration (ms): 1572.7 | throughput per GPU (TFLOP/s/GPU): 402.1 | lm loss: 1.21E+01 |",
	       402.1, TPUT_TFLOPS_GPU, 20, 12.1);
	expect("megatron-deepspeed", " iteration 10/ 100 | elapsed time per iteration (ms): 2310.7 | lm loss: 1.085E+01 | samples per second: 12.3 | TFLOPs: 98.1 |",
	       12.3, TPUT_SAMPLES_S, 10, 10.85);
	expect("torchtitan", "step: 10  loss: 7.9  memory: 30.1GiB(38%)  tps: 5,856  tflops: 301  mfu: 30.4%",
	       5856, TPUT_TOKENS_S_GPU, 10, 7.9);
	expect("nanogpt", "iter 100: loss 2.3041, time 120.52ms, mfu 30.21%", 120.52, TPUT_MS_STEP, 100, 2.3041);
	expect("llmc", "step 1/74 | loss 11.01 (+nanz)| norm 1.2 (+nanz)| 512.3 ms | 45.1% bf16 MFU | 1023456 tok/s",
	       1023456, TPUT_TOKENS_S, 1, 11.01);
	expect("nanochat", "step 00004/21400 (0.02%) | loss: 9.1 | lrm: 1.00 | dt: 990.2ms | tok/sec: 529,882",
	       529882, TPUT_TOKENS_S, 4, 9.1);
	expect("modded-nanogpt", "step:193/6000 train_loss:4.84 train_time:67428ms step_avg:368.46ms",
	       368.46, TPUT_MS_STEP, 193, 4.84);
	expect("hf-trainer", "{'train_runtime': 896.0007, 'train_samples_per_second': 1.116, 'train_steps_per_second': 0.009, 'epoch': 1.0}",
	       1.116, TPUT_SAMPLES_S, -1, NAN);
	expect("tqdm", " 37%|###7      | 370/1000 [01:02<01:45,  5.97it/s]", 5.97, TPUT_IT_S, 370, NAN);
	expect("deepspeed", "[Rank 0] global_step=100, RunningAvgSamplesPerSec=48.1, CurrSamplesPerSec=49.5, MemAllocated=6GB",
	       49.5, TPUT_SAMPLES_S, 100, NAN);
	expect("fairseq", "train_inner | epoch 001:  100 / 1000 loss=9.1, nll_loss=8.9, wps=51234, ups=2.1, num_updates=100, train_wall=45",
	       51234, TPUT_TOKENS_S, 100, 9.1);
	expect("maxtext", "completed step: 12, seconds: 1.234, TFLOP/s/device: 301.2, Tokens/s/device: 6640.1, loss: 9.8",
	       6640.1, TPUT_TOKENS_S_GPU, 12, 9.8);
	expect("nemo", "Training epoch 0, iteration 9/99 | global_step: 9 | reduced_train_loss: 9.1 | train_step_timing in s: 1.23 | TFLOPS_per_GPU: 1.249e+03",
	       1249, TPUT_TFLOPS_GPU, 9, 9.1);
	expect("nanotron", "iteration: 10 / 100 | elapsed_time_per_iteration_ms: 4.71K | tokens_per_sec: 43.2K | lm_loss: 10.8",
	       43200, TPUT_TOKENS_S, 10, 10.8);
	expect("generic", "14.5K tok/s", 14500, TPUT_TOKENS_S, -1, NAN);
	expect("generic", "throughput 12,345 tokens/sec", 12345, TPUT_TOKENS_S, -1, NAN);
	expect("generic", "1.2e4 tok/s", 12000, TPUT_TOKENS_S, -1, NAN);
	expect("generic", "step 40: 256 samples/s", 256, TPUT_SAMPLES_S, 40, NAN);
	expect("deepspeed-legacy", "[INFO 2020-06-08 05:26:19] 0/2650, SamplesPerSec=13.19749106827976",
	       13.19749106827976, TPUT_SAMPLES_S, 2650, NAN);
	expect("maxtext-v0", "completed step: 15107, seconds: 2.167, TFLOP/s: 36.722, loss: 2.191",
	       36.722, TPUT_TFLOPS_GPU, 15107, 2.191);
	expect("tinygrad", "    3 7.34 s run, 11.8750 loss, 0.000000000002 LR, 1454.57 GB used, 236258.78 GFLOPS",
	       7340, TPUT_MS_STEP, 3, 11.875);
	/* mmcv's runner and MMEngine's: "time:" is seconds per iteration, the iteration the step */
	expect("mmcv", "2020-05-08 18:44:23,494 - mmdet - INFO - Epoch [1][1250/7517]\tlr: 0.00125, eta: 4:43:39, time: 0.594, data_time: 0.031, memory: 6836, loss_rpn_cls: 0.1082, acc: 93.0137, loss: 0.5449",
	       594, TPUT_MS_STEP, 1250, 0.5449);
	expect("mmcv", "06/15 10:00:00 - mmengine - INFO - Epoch(train)  [2][ 50/1000]  lr: 1.0000e-02  eta: 0:10:00  time: 0.5000  data_time: 0.0100  memory: 1234  loss: 0.7500  loss_cls: 0.5",
	       500, TPUT_MS_STEP, 50, 0.75);
	expect("mmcv", "2021-01-01 10:00:00,000 - mmseg - INFO - Iter [16050/80000]\tlr: 8.7e-03, eta: 6:02:11, time: 0.340, data_time: 0.007, memory: 3541, decode.loss_seg: 0.2, loss: 0.31",
	       340, TPUT_MS_STEP, 16050, 0.31);
	{
		struct got g = run(NULL, "06/15 10:00:00 - mmengine - INFO - Epoch(val)  [2][ 50/500]    eta: 0:00:10  time: 0.0500  data_time: 0.0100  memory: 1234");
		/* a validation line: one result, noise (a throughput word, no rule), no point */
		assert_int_equal(g.n, 1);
		assert_int_equal(g.res[0], TPUT_NOMATCH);
		assert_int_equal(g.lineno[0], 1);
	}
	/* modded-nanogpt: the val lines carry step_avg too, train_loss or not */
	expect("modded-nanogpt", "step:125/1480 val_loss:4.3719 train_time:29736ms step_avg:258.57ms",
	       258.57, TPUT_MS_STEP, 125, NAN);
}

/* Every measurement a line holds, each its own point, sorted by unit. */
static void test_every_figure(void **state)
{
	(void)state;
	static const enum tput_unit mx[] = { TPUT_TFLOPS_GPU, TPUT_MS_STEP };
	expect_all(" [2024-04-06 02:59:36] iteration       43/     100 | consumed samples:         5504 | elapsed time per iteration (ms): 5444.9 | throughput per GPU (TFLOP/s/GPU): 239.8 | lm loss: 1.825991E+00 |",
		   2, mx, (const double[]){ 239.8, 5444.9 });
	static const enum tput_unit tt[] = { TPUT_TOKENS_S_GPU, TPUT_TFLOPS_GPU, TPUT_MFU };
	expect_all("[rank0]:[titan] 2025-03-12 11:10:21,511 - root - INFO - step: 22  loss:  6.2250  memory:  1.41GiB(1.79%)  tps: 193,831  tflops: 18.36  mfu: 1.86%",
		   3, tt, (const double[]){ 193831, 18.36, 1.86 });
	static const enum tput_unit fq[] = { TPUT_TOKENS_S, TPUT_IT_S };
	expect_all("2020-07-17 07:11:02 | INFO | train_inner | epoch 001:   2800 / 160368 loss=9.255, ppl=611.12, wps=57.3, ups=0.04, wpb=1613, bsz=80, num_updates=2800, lr=2.8e-05, gnorm=3.23, train_wall=13, wall=1236",
		   2, fq, (const double[]){ 57.3, 0.04 });
	/* OneFlow: the key before the unit is another figure's ("top_k: 0.92, samples/s: 7805") */
	static const enum tput_unit of[] = { TPUT_SAMPLES_S };
	expect_all("train: epoch 48, iter 100, loss: 1.885468, top_1: 0.781061, top_k: 0.923060, samples/s: 7805.132 1606115586.6729984",
		   1, of, (const double[]){ 7805.132 });
	static const enum tput_unit sk[] = { TPUT_SAMPLES_S, TPUT_IT_S };
	expect_all("[INFO:sockeye.training] Epoch[0] Batch [850]    Speed: 1233.65 samples/sec 6.31 updates/sec perplexity=1069.412118",
		   2, sk, (const double[]){ 1233.65, 6.31 });
	static const enum tput_unit hf[] = { TPUT_TOKENS_S, TPUT_SAMPLES_S, TPUT_IT_S };
	expect_all("{'train_runtime': 299.1983, 'train_samples_per_second': 8.021, 'train_steps_per_second': 0.334, 'train_tokens_per_second': 2737.984, 'train_loss': 2.8478338932991027, 'epoch': 2.24, 'num_input_tokens_seen': 19660800}",
		   3, hf, (const double[]){ 2737.984, 8.021, 0.334 });
}

/* A line of a shape seen before matches the presets' patterns as that one did (they are
 * digit-blind): its own values still, and a check on values (a bar's count at its total is
 * a closing frame) still made. */
static void test_regex_shape_memo(void **state)
{
	(void)state;
	static const char text[] =
		"[rank1]:step: 12  loss: 2.25  memory: 3.10GiB  tps: 4,321\n"
		"[rank2]:step: 13  loss: 9.75  memory: 3.10GiB  tps: 5,009\n"
		"Epoch 0:  80%|########  | 40/50 [00:10<00:02,  4.95it/s, loss=2.1]\n"
		"Epoch 0:  90%|######### | 45/50 [00:11<00:01,  5.02it/s, loss=2.0]\n"
		"Epoch 0: 100%|##########| 50/50 [00:12<00:00,  5.10it/s, loss=1.9]\n";
	struct got g = read_text(text, 1, NULL, NULL);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.res[0], TPUT_POINT);
	assert_true(g.pt[0].value == 4321 && g.pt[0].step == 12 && g.pt[0].loss == 2.25 && g.pt[0].rank == 1);
	assert_int_equal(g.res[1], TPUT_POINT);
	assert_true(g.pt[1].value == 5009 && g.pt[1].step == 13 && g.pt[1].loss == 9.75 && g.pt[1].rank == 2);
	assert_int_equal(g.pt[1].unit, TPUT_TOKENS_S_GPU);
	assert_int_equal(g.res[2], TPUT_POINT);
	assert_true(g.pt[2].value == 4.95 && g.pt[2].step == 40 && g.pt[2].loss == 2.1);
	assert_int_equal(g.res[3], TPUT_POINT);
	assert_true(g.pt[3].value == 5.02 && g.pt[3].step == 45 && g.pt[3].loss == 2.0);
	assert_int_equal(g.lineno[4], 5);
	assert_int_equal(g.res[4], TPUT_NOMATCH);  /* 50/50: the bar's closing frame */
}

/* Records over lines, copies and redraws, inference counts: the extractor's memory. */
/* A record hard-wrapped at 120 columns with its literal ("tps") cut in two: the continuation
 * line finds it and the record reads whole, on its first line; a line of another log as wide
 * and followed by an unprefixed line stays alone. */
static void test_wrapped_record(void **state)
{
	(void)state;
	tput_ex *ex = tput_ex_new();
	for (size_t i = 0; i < tputpreset_count; i++)
		tput_ex_add_preset(ex, i);
	static const char text[] =
		"[rank0]:[titan] 2025-03-12 11:10:21,511 - root - INFO - step: 21  loss:  6.2  tps: 193,831\n"
		"[rank0]:[titan] 2025-03-12 11:10:22,511 - root - INFO - step: 22  loss:  6.12345555555555555  memory:  1.41GiB(1.79%)  t\n"
		"ps: 192,154  tflops: 18.36  mfu: 1.86%\n"
		"[rank0]:[titan] 2025-03-12 11:10:23,511 - root - INFO - step: 23  loss:  6.1  tps: 193,900\n";
	char *copy = strdup(text);
	struct got g = { .n = 0 };
	assert_int_equal(tput_ex_block(ex, copy, strlen(copy), 1, collect, &g), 4);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.lineno[1], 2);
	assert_true(g.pt[1].step == 22);
	assert_int_equal(g.pt[1].unit, TPUT_TOKENS_S_GPU);
	near(g.pt[1].value, 192154);
	assert_int_equal(g.pt[2].unit, TPUT_TFLOPS_GPU);
	assert_int_equal(g.pt[3].unit, TPUT_MFU);
	assert_int_equal(g.lineno[4], 4);
	assert_true(g.pt[4].step == 23);
	free(copy);
	/* no prefixed neighbour: an unprefixed line after one as wide is a line of its own */
	static const char mixed[] =
		"step 3:    120.44 GFLOPS, loss: 10.4\n"
		"[2019-03-21 18:31:43,773 INFO] Step 2250/200000; acc:  31.18; xent: 4.05; 5092/261 tok/s;   6641 sec\n"
		"Epoch  1, 12900/37527; xent:  10.47; 3599 src tok/s; 3678 tgt tok/s;   9861 s elapsed\n"
		"consumed_samples: 4096\n";
	copy = strdup(mixed);
	g.n = 0;
	tput_ex_block(ex, copy, strlen(copy), 1, collect, &g);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.lineno[3], 3);
	assert_int_equal(g.pt[3].unit, TPUT_TOKENS_S_SRC);
	near(g.pt[3].value, 3599);
	free(copy);
	tput_ex_free(ex);
}

static void test_runs_of_lines(void **state)
{
	(void)state;
	static const char text[] =
		"2024-08-06 10:00:05.520 host:0  olmo.train:908  INFO    [step=2/739328,epoch=0]\n"
		"    train/CrossEntropyLoss=1.78\n"
		"    throughput/device/tokens_per_second=26,668\n"
		"[titan] 2026-02-24 19:46:17,508 - root - INFO - step:  4  loss:  7.6  tps: 10,050\n"
		"[titan] 2026-02-24 19:46:17,508 - root - INFO - step:  4  loss:  7.6  tps: 10,049\n"
		"INFO:tensorflow:global_step/sec: 0.0339311\n"
		"INFO:tensorflow:global_step/sec: 0.0339311\n"
		"INFO 06-16 10:03:14 [loggers.py:87] Engine 000: Avg prompt throughput: 1254.4 tokens/s\n"
		" 100%|##########| 100/100 [04:11<00:00,  2.27s/it]\n";
	size_t copies, inference;
	struct got g = read_text(text, 0, &copies, &inference);
	/* OLMo's figure takes its header's step and time; the rank copy and the repeated line
	 * are dropped; the inference line and the closing frame give nothing. */
	int points = 0;
	for (int k = 0; k < g.n; k++)
		points += g.res[k] == TPUT_POINT;
	assert_int_equal(points, 3);
	assert_int_equal(g.lineno[0], 3);
	assert_true(g.pt[0].step == 2);
	assert_int_equal(g.pt[0].rank, 0);  /* the header's "host:0" */
	near(g.pt[0].time, 1722938405.52);
	assert_int_equal(g.pt[0].unit, TPUT_TOKENS_S_GPU);
	assert_int_equal(g.lineno[1], 4);
	near(g.pt[1].value, 10050);
	near(g.pt[1].time, 1771962377.508);
	assert_int_equal(copies, 2);
	assert_int_equal(inference, 1);
}

/* The points of a text read whole by every preset, and the copies it counted. */
static int block_points(const char *text, size_t *copies)
{
	struct got g = read_text(text, 1, copies, NULL);
	int points = 0;
	for (int k = 0; k < g.n; k++)
		points += g.res[k] == TPUT_POINT;
	return points;
}

/* The same message from a second logger on the next line (TensorFlow's logging and absl) is
 * a copy; one logger's lines with the same figures, or a second logger's with others, are not. */
static void test_other_logger(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int points;
		size_t copies;
	} cases[] = {
		{ "INFO:tensorflow:global_step/sec: 0.051789\n"
		  "I0609 07:53:35.833151 140427424720704 tpu_estimator.py:2350] global_step/sec: 0.051789\n"
		  "INFO:tensorflow:global_step/sec: 0.0517934\n"
		  "I0609 07:53:35.957382 140160153200448 tpu_estimator.py:2350] global_step/sec: 0.0517934\n", 2, 2 },
		{ "INFO:tensorflow:Step 200 per-step time 0.831s loss=1.192\n"
		  "I0912 11:41:51.976096 139735407601536 model_lib_v2.py:652] Step 200 per-step time 0.831s loss=1.192\n", 1, 1 },
		/* one logger: the clock and the padding of a count differ, the figures are the same */
		{ "2024-01-01 12:00:01 speed: 1,000 tok/s\n"
		  "2024-01-01 12:00:02 speed: 1,000 tok/s\n", 2, 0 },
		{ "Epoch: [12]  [ 80/208]  speed: 1,000 tok/s\n"
		  "Epoch: [12]  [100/208]  speed: 1,000 tok/s\n", 2, 0 },
		/* two loggers, other figures; the same figures two lines apart */
		{ "INFO:tensorflow:global_step/sec: 0.051789\n"
		  "I0609 07:53:35.833151 1404 tpu_estimator.py:2350] global_step/sec: 0.051790\n"
		  "INFO:tensorflow:examples/sec: 1.24294\n"
		  "INFO:tensorflow:         Loss  = 1.6558864 (58.297 sec)\n"
		  "I0609 07:53:35.833359 1404 tpu_estimator.py:2351] examples/sec: 1.24294\n", 4, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t copies;
		assert_int_equal(block_points(cases[i].text, &copies), cases[i].points);
		assert_int_equal(copies, cases[i].copies);
	}
}

/* Progress bars: a frame drawn again later is a copy; a bar seen in one frame waits for a
 * second, and counts at the input's end only when no bar showed two. */
static struct got bars(const char *text, int finish) { return read_text(text, finish, NULL, NULL); }

static int points_of(const struct got *g, long long *steps)
{
	int n = 0;
	for (int k = 0; k < g->n; k++)
		if (g->res[k] == TPUT_POINT)
			steps[n++] = g->pt[k].step;
	return n;
}

static void test_bars(void **state)
{
	(void)state;
	long long st[32];
	/* a pasted stretch (4, 5) then the bar from its start: 4 and 5 again are copies */
	struct got g = bars("Epoch 0:  22%|##   | 4/18 [00:17<01:02,  4.47s/it, loss=10.07]\n"
			    "Epoch 0:  28%|##   | 5/18 [00:20<00:53,  4.14s/it, loss=9.95]\n"
			    "Epoch 0:   6%|#    | 1/18 [00:08<02:29,  8.77s/it]\n"
			    "Epoch 0:  11%|#    | 2/18 [00:11<01:33,  5.82s/it, loss=10.47]\n"
			    "Epoch 0:  22%|##   | 4/18 [00:17<01:02,  4.47s/it, loss=10.05]\n"
			    "Epoch 0:  28%|##   | 5/18 [00:20<00:53,  4.14s/it, loss=9.93]\n", 1);
	assert_int_equal(points_of(&g, st), 4);
	assert_true(st[0] == 4 && st[1] == 5 && st[2] == 1 && st[3] == 2);
	near(g.pt[0].value, 1 / 4.47);
	assert_int_equal(g.lineno[0], 1);
	/* another epoch's bar at the same count and clock is no copy: its words differ */
	g = bars("Epoch 0:  22%|##   | 4/18 [00:17<01:02,  4.47s/it]\n"
		 "Epoch 0:  28%|##   | 5/18 [00:20<00:53,  4.14s/it]\n"
		 "Epoch 1:  22%|##   | 4/18 [00:17<01:02,  4.47s/it]\n", 1);
	assert_int_equal(points_of(&g, st), 3);
	/* a data preparation bar caught in one frame, then the training bar */
	g = bars(" 67%|####   | 2/3 [00:01<00:00,  1.68it/s]\n"
		 "packing_efficiency_estimate: 0.77\n"
		 " 32%|###    | 281/873 [25:36<52:46,  5.35s/it]\n"
		 " 32%|###    | 282/873 [25:40<49:29,  5.02s/it]\n"
		 " 32%|###    | 283/873 [25:44<47:06,  4.79s/it]\n", 1);
	assert_int_equal(points_of(&g, st), 3);
	assert_true(st[0] == 281 && st[2] == 283);
	/* two processes drawing one bar each, no rank prefix: each step once, the first drawn */
	g = bars(" 10%|#  | 10/100 [00:10<01:30,  1.00it/s]\n"
		 " 10%|#  | 10/100 [00:10<01:30,  1.01it/s]\n"
		 " 11%|#  | 11/100 [00:11<01:29,  1.00it/s]\n"
		 " 11%|#  | 11/100 [00:11<01:29,  1.02it/s]\n"
		 " 12%|#  | 12/100 [00:12<01:28,  1.00it/s]\n", 1);
	assert_int_equal(points_of(&g, st), 3);
	assert_true(st[0] == 10 && st[1] == 11 && st[2] == 12);
	assert_int_equal(g.left, 2);  /* the second drawings, left out with their reason */
	/* the one bar frame of an input counts once the input ends, not before */
	g = bars("Step:  20%|##   | 1/5 [00:22<01:31, 22.90s/it]\n", 0);
	assert_int_equal(points_of(&g, st), 0);
	g = bars("Step:  20%|##   | 1/5 [00:22<01:31, 22.90s/it]\n", 1);
	assert_int_equal(points_of(&g, st), 1);
	near(g.pt[0].value, 1 / 22.9);
	/* a lone frame after a bar that showed two is dropped at the end */
	g = bars(" 10%|#  | 10/100 [00:10<01:30,  1.00it/s]\n"
		 " 11%|#  | 11/100 [00:11<01:29,  1.00it/s]\n"
		 " 50%|#  | 1/2 [00:01<00:01,  1.00it/s]\n", 1);
	assert_int_equal(points_of(&g, st), 2);
	/* the figures of the lines after a held frame wait for it: all go out in line order */
	g = bars(" 10%|#  | 10/100 [00:10<01:30,  1.00it/s]\n"
		 "step: 7  loss: 2.5  tokens/s: 1234\n"
		 " 11%|#  | 11/100 [00:11<01:29,  2.00it/s]\n", 1);
	assert_int_equal(points_of(&g, st), 3);
	assert_true(st[0] == 10 && st[1] == 7 && st[2] == 11);
	unsigned long last = 0;
	for (int k = 0; k < g.n; k++)
		if (g.res[k] == TPUT_POINT) {
			assert_true(g.lineno[k] > last);
			last = g.lineno[k];
		}
	/* a bar's next round (its count starts again) confirms it as a later count does */
	g = bars(" 99%|#  | 99/100 [00:10<00:01,  1.00it/s]\n"
		 "  1%|#  | 1/100 [00:01<01:39,  1.00it/s]\n", 0);
	assert_int_equal(points_of(&g, st), 2);
	/* closing frames alone, each naming its round (Ultralytics' epochs): each round's
	 * figure, no step; the first held until the second round confirms the bar */
	g = bars("    70/1000  6.73G  1.081  640: 100%|###| 16/16 [00:05<00:00,  2.78it/s]\n"
		 "    71/1000  6.73G  1.038  640: 100%|###| 16/16 [00:05<00:00,  2.72it/s]\n"
		 "    72/1000  6.73G  1.096  640: 100%|###| 16/16 [00:06<00:00,  2.57it/s]\n", 0);
	assert_int_equal(points_of(&g, st), 3);
	assert_true(st[0] == -1 && st[2] == -1);
	near(g.pt[0].value, 2.78);
	near(g.pt[2].value, 2.57);
	/* not when the round showed frames before (the closing one repeats them), nor when
	 * the line names no round (the close of a run) */
	g = bars("    70/1000  640:  94%|###| 15/16 [00:05<00:00,  2.70it/s]\n"
		 "    70/1000  640: 100%|###| 16/16 [00:05<00:00,  2.78it/s]\n"
		 "    71/1000  640:   6%|###| 1/16 [00:00<00:05,  2.71it/s]\n", 1);
	assert_int_equal(points_of(&g, st), 2);
	assert_true(st[0] == 15 && st[1] == 1);
	g = bars("100%|###| 8/8 [14:55<00:00, 111.95s/it]\n"
		 "100%|###| 8/8 [14:56<00:00, 112.02s/it]\n", 1);
	assert_int_equal(points_of(&g, st), 0);
	/* Keras: fit's bar, one closing frame per epoch, a bar of rounds; evaluate's, of
	 * another total and alone, is dropped at the end */
	g = bars("Epoch 1/2\n"
		 "788/788 \xe2\x94\x81\xe2\x94\x81 16s 19ms/step - accuracy: 0.5930 - loss: 1.1796\n"
		 "Epoch 2/2\n"
		 "788/788 \xe2\x94\x81\xe2\x94\x81 14s 18ms/step - accuracy: 0.9639 - loss: 0.1469\n"
		 "438/438 \xe2\x94\x81\xe2\x94\x81 2s 4ms/step - accuracy: 0.9900 - loss: 0.0435\n", 1);
	assert_int_equal(points_of(&g, st), 2);
	near(g.pt[0].value, 19);
	near(g.pt[1].value, 18);
	g = bars("423/423 [==============================] - 192s 454ms/step - loss: 1.8386\n", 1);
	assert_int_equal(points_of(&g, st), 1);
	near(g.pt[0].value, 454);
}

/* Every throughput line of the real logs kept in testdata/logs parses. */
static void test_real_logs(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		int points, nans;
		double first;
	} logs[] = {
		{ "log-megatron-gpt2-n8.out", 20, 0, 3171.3 },
		{ "modded-nanogpt-head.txt", 186, 12, 682.95 }, /* 200 lines: 2 val lines, 12 nan */
		/* 8 processes: their tqdm frames but the closing ones and those another process
		 * drew alike, and their summaries' samples/s and steps/s */
		{ "hf-deepspeed-tqdm-tail.out", 33, 0, 1 / 113.21 },
	};
	const char *dir = getenv("SIFT_TESTDATA");
	assert_non_null(dir);
	for (size_t f = 0; f < sizeof logs / sizeof logs[0]; f++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/logs/%s", dir, logs[f].file);
		FILE *in = fopen(path, "r");
		assert_non_null(in);
		tput_ex *ex = tput_ex_new();
		for (size_t i = 0; i < tputpreset_count; i++)
			tput_ex_add_preset(ex, i);
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		int points = 0, nans = 0, bad = 0;
		unsigned long lineno = 0;
		double first = NAN;
		while ((len = getline(&line, &cap, in)) > 0) {
			if (line[len - 1] == '\n')
				line[--len] = '\0';
			struct got g = { .n = 0 };
			tput_ex_line(ex, line, (size_t)len, ++lineno, collect, &g);
			for (int k = 0; k < g.n; k++) {
				points += g.res[k] == TPUT_POINT;
				nans += g.res[k] == TPUT_NAN;
				bad += g.res[k] == TPUT_BAD;
				if (g.res[k] == TPUT_POINT && isnan(first))
					first = g.pt[k].value;
			}
		}
		free(line);
		fclose(in);
		tput_ex_free(ex);
		assert_int_equal(points, logs[f].points);
		assert_int_equal(nans, logs[f].nans);
		assert_int_equal(bad, 0);
		near(first, logs[f].first);
	}
}

static void test_effective_tflops_step(void **state)
{
	(void)state;
	tput_ex *ex = tput_ex_new();
	for (size_t i = 0; i < tputpreset_count; i++)
		tput_ex_add_preset(ex, i);
	static const char text[] =
		" iteration       10/     100 | elapsed time per iteration (ms): 2310.7 | samples per second: 3.462 |\n"
		"Effective Tera Flops per GPU: 45.2 and total parameters 1.3 B\n";
	char *copy = strdup(text);
	struct got g = { .n = 0 };
	tput_ex_block(ex, copy, strlen(copy), 1, collect, &g);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.lineno[2], 2);
	assert_int_equal(g.pt[2].unit, TPUT_TFLOPS_GPU);
	assert_true(g.pt[2].step == 10);
	free(copy);
	tput_ex_free(ex);
}

static void test_traps(void **state)
{
	(void)state;
	/* ANSI colours around the fields (torchtitan) */
	struct got g = run(NULL, "\x1b[31mstep:  7  \x1b[32mloss:  7.9012  \x1b[34mtps: 5,856  \x1b[39m");
	assert_int_equal(g.n, 1);
	near(g.pt[0].value, 5856);
	assert_int_equal(g.pt[0].step, 7);
	/* "\r"-joined tqdm frames, s/it inverted to it/s */
	g = run(NULL, "\r  0%|          | 0/8 [00:00<?, ?it/s]\r 12%|#         | 1/8 [01:53<13:12, 113.21s/it]"
		      "\r 25%|##        | 2/8 [03:45<11:17,  2.50it/s, loss=2.0]");
	assert_int_equal(g.n, 3);
	assert_int_equal(g.res[0], TPUT_NOMATCH);   /* "?it/s": no figure yet */
	near(g.pt[1].value, 1 / 113.21);
	assert_int_equal(g.pt[1].step, 1);
	near(g.pt[2].value, 2.5);
	near(g.pt[2].loss, 2.0);
	/* progress bars that are not training */
	g = run(NULL, "Loading checkpoint shards: 100%|##########| 2/2 [00:00<00:00, 2484.00it/s]");
	assert_int_equal(g.n, 1);
	assert_int_equal(g.res[0], TPUT_NOMATCH);
	/* nan: counted apart */
	g = run(NULL, "step:5/6000 train_loss:10.9 train_time:25286ms step_avg:nanms");
	assert_int_equal(g.res[0], TPUT_NAN);
	/* garbled figures are bad lines, not silent misses */
	g = run(NULL, "step: 8  loss: 7.8  tps: 5,85,6  tflops: 301");
	assert_int_equal(g.res[0], TPUT_BAD);
	g = run(NULL, "iteration: 10 / 100 | tokens_per_sec: 12.3X | lm_loss: 1");
	assert_int_equal(g.res[0], TPUT_BAD);
	/* per-GPU and global stay apart */
	g = run(NULL, "completed step: 1, Tokens/s/device: 100, loss: 1");
	assert_int_equal(g.pt[0].unit, TPUT_TOKENS_S_GPU);
	g = run(NULL, "step 1/9 | loss 1.0 | 9 ms | 100 tok/s");
	assert_int_equal(g.pt[0].unit, TPUT_TOKENS_S);
	/* K suffix on a time */
	g = run(NULL, "iter 3: loss 2.0, time 1.5Kms, mfu 30%");
	near(g.pt[0].value, 1500);
	/* noise */
	g = run(NULL, "plain noise line");
	assert_int_equal(g.n, 0);
	g = run(NULL, "{'loss': 2.1, 'grad_norm': 1.3, 'learning_rate': 5e-05, 'epoch': 0.1}");
	assert_int_equal(g.n, 0);
}

static void test_custom_regex(void **state)
{
	(void)state;
	tput_ex *ex = tput_ex_new();
	char err[256];
	assert_int_equal(tput_ex_add_regex(ex, "speed=(?<tput>\\S+) (?<unit>samples/s) @(?<step>\\d+)", err, sizeof err), 0);
	assert_int_equal(tput_ex_add_regex(ex, "(?<tput>", err, sizeof err), -1);
	assert_int_equal(tput_ex_add_regex(ex, "speed=(\\d+)", err, sizeof err), -1);
	assert_string_equal(err, "pattern has no (?<tput>...) group");
	struct got g = { .n = 0 };
	char line[] = "2: speed=1.5K samples/s @17";
	tput_ex_line(ex, line, strlen(line), 1, collect, &g);
	assert_int_equal(g.n, 1);
	near(g.pt[0].value, 1500);
	assert_int_equal(g.pt[0].unit, TPUT_SAMPLES_S);
	assert_int_equal(g.pt[0].step, 17);
	assert_int_equal(g.pt[0].rank, 2);
	assert_string_equal(tput_ex_rule_name(ex, 0), "regex");
	tput_ex_free(ex);
}

/* A block gives what its lines give one at a time, with their numbers: CRLF, empty and
 * noise lines, ANSI, "\r" frames, a line with no rule's match, an unterminated last line. */
static void test_block(void **state)
{
	(void)state;
	static const char text[] =
		"noise line\r\n"
		"[rank3]:step: 10  loss:  7.9012  memory: 30.10GiB(38.05%)  tps: 5,856  tflops: 1\r\n"
		"\n"
		"step 40 | 14.5K tok/s\n"
		"\x1b[32mstep 41 | 2.5K tok/s\x1b[0m\n"
		"tps: garbage words\n"
		" 37%|###7      | 370/1000 [01:02<01:45,  5.97it/s, loss=2.1]\r"
		" 38%|###8      | 380/1000 [01:03<01:44,  6.01it/s, loss=2.0]\n"
		"iter 100: loss 2.3041, time 120.52ms, mfu 30.21%";
	tput_ex *ex = tput_ex_new();
	for (size_t i = 0; i < tputpreset_count; i++)
		tput_ex_add_preset(ex, i);
	char *copy = strdup(text);
	struct got g = { .n = 0 };
	tput_ex_block(ex, copy, strlen(text), 101, collect, &g);
	static const struct {
		unsigned long lineno;
		enum tput_result res;
		double value;
		enum tput_unit unit;
		long rank;
	} want[] = {
		{ 102, TPUT_POINT, 5856, TPUT_TOKENS_S_GPU, 3 }, { 102, TPUT_POINT, 1, TPUT_TFLOPS_GPU, 3 },
		{ 104, TPUT_POINT, 14500, TPUT_TOKENS_S, -1 },
		{ 105, TPUT_POINT, 2500, TPUT_TOKENS_S, -1 }, { 106, TPUT_NOMATCH, 0, 0, 0 },
		{ 107, TPUT_POINT, 5.97, TPUT_IT_S, -1 }, { 107, TPUT_POINT, 6.01, TPUT_IT_S, -1 },
		{ 108, TPUT_POINT, 120.52, TPUT_MS_STEP, -1 }, { 108, TPUT_POINT, 30.21, TPUT_MFU, -1 },
	};
	assert_int_equal(g.n, sizeof want / sizeof want[0]);
	for (int i = 0; i < g.n; i++) {
		assert_int_equal(g.lineno[i], want[i].lineno);
		assert_int_equal(g.res[i], want[i].res);
		if (want[i].res != TPUT_POINT)
			continue;
		near(g.pt[i].value, want[i].value);
		assert_int_equal(g.pt[i].unit, want[i].unit);
		assert_int_equal(g.pt[i].rank, want[i].rank);
	}
	/* The same lines one by one ("\r\n" cut as in_next cuts it). */
	strcpy(copy, text);
	struct got one = { .n = 0 };
	unsigned long lineno = 101;
	for (char *p = copy, *end = copy + strlen(copy); p < end; lineno++) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		tput_ex_line(ex, p, len - (len > 0 && p[len - 1] == '\r'), lineno, collect, &one);
		p += len + 1;
	}
	assert_int_equal(one.n, g.n);
	for (int i = 0; i < g.n; i++) {
		assert_int_equal(one.lineno[i], g.lineno[i]);
		assert_int_equal(one.res[i], g.res[i]);
	}
	free(copy);
	tput_ex_free(ex);

	/* A custom rule has no literal: every line is tried (and a miss is a skipped line). */
	ex = tput_ex_new();
	char err[256];
	assert_int_equal(tput_ex_add_regex(ex, "speed=(?<tput>\\S+) (?<unit>samples/s)", err, sizeof err), 0);
	char custom[] = "speed=1.5K samples/s\r\nfoo\nspeed=3 samples/s";
	g.n = 0;
	tput_ex_block(ex, custom, strlen(custom), 10, collect, &g);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.lineno[0], 10);
	near(g.pt[0].value, 1500);
	assert_int_equal(g.lineno[1], 11);
	assert_int_equal(g.res[1], TPUT_NOMATCH);
	assert_int_equal(g.lineno[2], 12);
	near(g.pt[2].value, 3);
	tput_ex_free(ex);
}

/* What the normalize and key/value stages read, through the whole extractor: a rank prefix,
 * a timestamp (the preset's own clock wins), a line of generation's timings. */
static void test_stages_in_lines(void **state)
{
	(void)state;
	struct got g = run(NULL, "[rank5]:step: 3  loss: 7.1  tps: 4,000");
	assert_int_equal(g.pt[0].rank, 5);
	g = run(NULL, "[rank1]:[2024-05-01 12:00:01,250] step: 3  loss: 7.1  tps: 4,000");
	near(g.pt[0].time, 1714564801.25);
	g = run(NULL, "step:193/6000 train_loss:4.84 train_time:67428ms step_avg:368.46ms");
	near(g.pt[0].time, 67.428);  /* the preset's own clock wins, in seconds */
	g = run(NULL, "llama_print_timings:      sample time =   301.80 ms /   512 runs   (    0.59 ms per token,  1696.48 tokens per second)");
	assert_int_equal(g.n, 1);
	assert_int_equal(g.res[0], TPUT_NOMATCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_preset_example),
		cmocka_unit_test(test_stages_in_lines),
		cmocka_unit_test(test_presets_on_table_lines),
		cmocka_unit_test(test_real_logs),
		cmocka_unit_test(test_effective_tflops_step),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_custom_regex),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_every_figure),
		cmocka_unit_test(test_regex_shape_memo),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_runs_of_lines),
		cmocka_unit_test(test_other_logger),
		cmocka_unit_test(test_wrapped_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
