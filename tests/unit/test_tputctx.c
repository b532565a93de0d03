/* test_tputctx: training, evaluation or inference by the words of a line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tputctx.h"

/* Training or not: whole words, any case, "val_loss" one word. */
static void test_context(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum tput_context want;
	} cases[] = {
		{ "step: 10 loss: 7.9 tps: 5,856", TPUT_CTX_TRAIN },
		{ "global_step: 120 | reduced_train_loss: 1.2 | val_loss: 4.1", TPUT_CTX_TRAIN },
		{ "[titan] validate step: 10  loss: 7.9  tps: 5,856", TPUT_CTX_OTHER },
		{ "Loading checkpoint shards: 100%|###| 2/2 [00:00<00:00, 2484.00it/s]", TPUT_CTX_OTHER },
		{ "Saving weights: 50%|##| 1/2 [00:01<00:01, 1.0it/s]", TPUT_CTX_OTHER },
		/* HF datasets' data preparation bars */
		{ "Map: 100%|###| 1000/1000 [00:01<00:00, 812.34 examples/s]", TPUT_CTX_OTHER },
		{ "Sanity Checking DataLoader 0: 100%|###| 2/2 [00:02<00:00,  0.87it/s]", TPUT_CTX_OTHER },
		/* data made into features, a message glued to a Keras frame's last figure */
		{ "Converting docs to features: 100%|###| 99/99 [00:00<00:00, 3036.11it/s]", TPUT_CTX_OTHER },
		{ "872/873 [====>.] - ETA: 0s - accuracy: 0.9043Converting docs to features: 100%|###| 99/99 "
		  "[00:00<00:00, 3549.48it/s]", TPUT_CTX_OTHER },
		{ "step 3 loss 0.5 2Validate", TPUT_CTX_OTHER },
		{ "step 3 loss 0.5 on 3rd_validation_set_x", TPUT_CTX_TRAIN },
		{ "  Map (num_proc=8): 100%|###| 5000/5000 [00:02<00:00, 2101.5 examples/s]", TPUT_CTX_OTHER },
		{ "Running tokenizer on dataset: 100%|#| 50/50 [00:03<00:00, 15.1 examples/s]", TPUT_CTX_OTHER },
		{ "Filter: 100%|#| 50/50 [00:00<00:00, 90.00 examples/s]", TPUT_CTX_OTHER },
		{ "Mapping 12 it/s", TPUT_CTX_TRAIN },
		/* a context word ending a key of several words names that figure alone */
		{ "fps step: 261574 fps step and policy inference: 230705 fps total: 181660 epoch: 376/500", TPUT_CTX_TRAIN },
		{ "Running inference: 45%|####| 9/20 [00:01<00:02, 5.1it/s]", TPUT_CTX_INFERENCE },
		{ "Running inference: 9/20 5.1it/s", TPUT_CTX_INFERENCE },
		{ "Running evaluation: 7it [00:00, 79.28it/s]", TPUT_CTX_OTHER },
		{ "eval_pred: 100%|##########| 34/34 [00:00<00:00, 725.38it/s]", TPUT_CTX_OTHER },
		{ "step 100 eval_loss 2.3 tokens/s 5000", TPUT_CTX_TRAIN },  /* names its figure */
		{ "Fetching 14 files:  21%|##        | 3/14 [00:00<00:00, 29.34it/s]", TPUT_CTX_OTHER },
		{ "Writing model shards: 100%|##########| 1/1 [00:00<00:00,  1.63it/s]", TPUT_CTX_OTHER },
		{ "Tokenizing train dataset:   5%|4         | 421/8939 [00:00<00:02, 4177.86 examples/s]", TPUT_CTX_OTHER },
		{ "step 10 | dataset: c4 | loss 2.1 | 980 tok/s", TPUT_CTX_TRAIN },  /* no bar: which data */
		{ "06/15 10:00:00 - mmengine - INFO - Epoch(val)  [2][ 50/500]    eta: 0:00:10  time: 0.0500", TPUT_CTX_OTHER },
		{ "Epoch 4 | iter 961 step 961 | loss train: 1.062, val: 1.057 | iter time: 529.46 ms (step)", TPUT_CTX_TRAIN },
		{ "Pass [1] throughput: 221.6 infer/sec. Avg latency: 4512 usec", TPUT_CTX_INFERENCE },
		{ "encoding        512 sentences   0.34s   1492 samples/s   13859 tokens/s", TPUT_CTX_INFERENCE },
		{ "inference: 230705 samples/s", TPUT_CTX_INFERENCE },
		{ "Dev: time: 4.53s, speed: 724.57st/s; acc: 0.8325", TPUT_CTX_OTHER },
		{ "Model Summary: 415 layers, 37196556 parameters, 37196556 gradients, 105.1 GFLOPS", TPUT_CTX_OTHER },
		{ "train speed = 6205.5483 images/s, test speed = 11218.4631 images/s", TPUT_CTX_TRAIN },
		{ "test speed = 11218.4631 images/s", TPUT_CTX_OTHER },
		{ "step 5, validation run: 45%|##| 9/20", TPUT_CTX_OTHER },
		{ "dev loss: 4.5 train speed: 724.57 samples/s", TPUT_CTX_TRAIN },
		{ "step 10 | 5 tok/s | /dev/shm", TPUT_CTX_TRAIN },
		{ "train | step 100 | loss 2.3 | tok/s/dev 4,321", TPUT_CTX_TRAIN },
		{ "step 3 map 0.5 12 it/s", TPUT_CTX_TRAIN },
		{ "INFO 08-20 02:39:37 metrics.py:411] Avg prompt throughput: 871.4 tokens/s", TPUT_CTX_INFERENCE },
		{ "Processed prompts: 100%|###| 8/8 [00:02<00:00, 3.2it/s]", TPUT_CTX_INFERENCE },
		{ "Adding requests: 100%|###| 8/8 [00:00<00:00, 900it/s]", TPUT_CTX_INFERENCE },
		{ "the c4_test dataset is re-looped, 12 tok/s", TPUT_CTX_TRAIN },
		/* a context word right before a score names the score, not the line */
		{ "step: 10  train loss: 3.11  test loss: 3.05  tokens/gpu/sec: 9378.40", TPUT_CTX_TRAIN },
		{ "step 5 | Eval Acc 0.91 | 120 tok/s", TPUT_CTX_TRAIN },
		{ "step 5 | validation perplexity 12.1 | 120 tok/s", TPUT_CTX_TRAIN },
		{ "test tokens/s: 120 loss 3.1", TPUT_CTX_OTHER },
		{ "test lossy: 3.05 120 tok/s", TPUT_CTX_OTHER },
		{ "eval loss 3.05 eval 120 tok/s", TPUT_CTX_OTHER },
		{ "Iter [50/160000] time: 0.574, decode.loss_ce: 2.8032, decode.acc_seg: 27.6, loss: 3.9", TPUT_CTX_TRAIN },
		{ "eval/loss 3.05 | 120 tok/s", TPUT_CTX_TRAIN },
		{ "decode.lossless 120 tok/s", TPUT_CTX_INFERENCE },
		{ "decode: loss 3.1 120 tok/s", TPUT_CTX_INFERENCE },
		/* an RL evaluator's rate; a detector's validation bar (its mAP columns) */
		{ "EVALUATOR - Steps per second: 346.916 | Episode length mean: 1.000", TPUT_CTX_OTHER },
		{ "ACTOR - Steps per second: 21.900 | Episode length mean: 1.000", TPUT_CTX_TRAIN },
		{ "Class Images Instances Box(P R mAP50 mAP50-95): 100%|###| 8/8 [00:03<00:00,  2.17it/s]", TPUT_CTX_OTHER },
		/* text-generation-webui's summary of a reply */
		{ "00:28:06-600105 INFO     Output generated in 9.62 seconds (2.49 tokens/s, 24", TPUT_CTX_INFERENCE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(tputctx_of(cases[i].line, strlen(cases[i].line)), cases[i].want);
}

/* The table is built from the word lists: the lengths of the words of each first letter. */
static void test_words_table(void **state)
{
	(void)state;
	struct tputctx_words w;
	tputctx_init(&w);
	/* v: valid 5, validate 8, validation 10 */
	assert_int_equal(w.lens['v' - 'a'], (1u << 5) | (1u << 8) | (1u << 10));
	/* m: map50 5 */
	assert_int_equal(w.lens['m' - 'a'], 1u << 5);
	assert_int_equal(w.lens['z' - 'a'], 0);
	assert_int_equal(w.word['_'], 1);
	assert_int_equal(w.word['7'], 1);
	assert_int_equal(w.word['-'], 0);
	assert_int_equal(w.word[0xc3], 0);
}

/* A context holds for every line of the shape unless a word compared has a digit. */
static void test_by_shape(void **state)
{
	(void)state;
	struct tputctx_words w;
	tputctx_init(&w);
	int by_shape = -1;
	const char *line = "step 12 loss 2.5 tokens/s 1200";
	assert_int_equal(tputctx_read_shaped(&w, line, strlen(line), &by_shape), TPUT_CTX_TRAIN);
	assert_int_equal(by_shape, 1);
	line = "Class Images mAP50 1.00: 12 it/s";
	assert_int_equal(tputctx_read_shaped(&w, line, strlen(line), &by_shape), TPUT_CTX_OTHER);
	assert_int_equal(by_shape, 0);
	line = "Class Images mAP51 1.00: 12 it/s";  /* the same shape, another context */
	assert_int_equal(tputctx_read_shaped(&w, line, strlen(line), &by_shape), TPUT_CTX_TRAIN);
	assert_int_equal(by_shape, 0);
	line = "validation 12 it/s";
	assert_int_equal(tputctx_read(&w, line, strlen(line)), TPUT_CTX_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_context),
		cmocka_unit_test(test_words_table),
		cmocka_unit_test(test_by_shape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
