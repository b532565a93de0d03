/* tputpreset: presets for the training-log shapes in the formats table, and the traps around them. */
#include "tputpreset.h"

#include <string.h>

/* Value tokens are taken loosely and judged by tputunit_number, so a garbled figure is
 * a bad line to report rather than a silent miss. */
#define VAL "[^\\s|,]+"
#define VALC "[^\\s|]+"   /* may hold thousands separators */
/* On to the start of a later field of a " | "-separated line (Megatron's): hopping field
 * to field costs the JIT far less than ".*?" does. */
#define FIELDS "(?:[^|]*+\\|)*?\\s*"

const struct tput_preset tputpreset_table[] = {
	{ "megatron-deepspeed", "Megatron-DeepSpeed", { "samples per second:", NULL },
	  "\\biteration\\s+(?<step>\\d+)/\\s*\\d+\\s*\\|(?:(?=" FIELDS "lm loss: (?<loss>" VAL ")))?"
	  FIELDS "samples per second: (?<tput>" VAL ")",
	  "samples/s", 1,
	  " iteration       10/     100 | consumed samples:           80 | elapsed time per iteration (ms): 2310.7 | lm loss: 1.085E+01 | samples per second: 3.462 | TFLOPs: 45.07 |", TPUT_READ_REGEX, 0, 0 },
	{ "megatron", "Megatron-LM", { "elapsed time per iteration (ms):", NULL },
	  "\\biteration\\s+(?<step>\\d+)/\\s*\\d+\\s*\\|(?:(?=" FIELDS "lm loss: (?<loss>" VAL ")))?"
	  "(?|(?=" FIELDS "throughput per GPU \\((?<unit>TFLOP/s/GPU)\\): (?<tput>" VAL "))"
	  "|" FIELDS "elapsed time per iteration \\((?<unit>ms)\\): (?<tput>" VAL "))",
	  NULL, 1,
	  " iteration       20/    1000 | consumed samples:         2560 | elapsed time per iteration (ms): 1572.7 | throughput per GPU (TFLOP/s/GPU): 402.1 | lm loss: 1.210E+01 |", TPUT_READ_REGEX, 0, 0 },
	{ "torchtitan", "torchtitan", { "tps: ", NULL },
	  "\\bstep:\\s*(?<step>\\d+)\\s+loss:\\s*(?<loss>\\S+)\\s.*?\\btps:\\s*(?<tput>\\S+)",
	  "tokens/s/gpu", 1,
	  "step: 10  loss:  7.9012  memory: 30.10GiB(38.05%)  tps: 5,856  tflops: 301.20  mfu: 30.45%",
	  TPUT_READ_REGEX, 1, 0 },
	{ "nanogpt", "nanoGPT", { ", time ", NULL },
	  "\\biter (?<step>\\d+): loss (?<loss>[^\\s,]+), time (?<tput>\\S+?)(?<unit>ms)\\b",
	  NULL, 1, "iter 100: loss 2.3041, time 120.52ms, mfu 30.21%", TPUT_READ_REGEX, 0, 0 },
	{ "llmc", "llm.c", { " tok/s", NULL },
	  "\\bstep\\s+(?<step>\\d+)/\\d+ \\| loss (?<loss>[^\\s|(]+).*\\|\\s*(?<tput>" VALC ") tok/s",
	  "tokens/s", 1,
	  "step    1/74 | loss 11.010010 (+nanz)| norm 15.3524 (+nanz)| lr 8.57e-07 | 512.30 ms | 45.1% bf16 MFU | 1023456 tok/s", TPUT_READ_REGEX, 0, 0 },
	{ "nanochat", "nanochat", { "tok/sec: ", NULL },
	  "\\bstep (?<step>\\d+)/\\d+.*?\\| loss: (?<loss>" VAL ").*?\\btok/sec: (?<tput>" VALC ")",
	  "tokens/s", 1,
	  "step 00004/21400 (0.02%) | loss: 9.107421 | lrm: 1.00 | dt: 990.20ms | tok/sec: 529,882 | mfu: 41.02 | total time: 0.05m", TPUT_READ_REGEX, 0, 0 },
	{ "modded-nanogpt", "modded-nanogpt", { "step_avg:", NULL },
	  "\\bstep:(?<step>\\d+)/\\d+ (?:train_loss:(?<loss>\\S+) |val_loss:\\S+ (?=\\S+ step_avg:\\d))?"
	  "train_time:(?<time>[^\\sa-z]+)ms"
	  " step_avg:(?<tput>\\S+?)(?<unit>ms)\\b",
	  NULL, 0.001, "step:193/6000 train_loss:4.8400 train_time:67428ms step_avg:368.46ms", TPUT_READ_REGEX, 0, 0 },
	{ "hf-trainer", "HF Trainer (summary)", { "'train_samples_per_second': ", NULL },
	  "'train_samples_per_second': (?<tput>[^\\s,}]+)(?:.*?'train_loss': (?<loss>[^\\s,}]+))?",
	  "samples/s", 1,
	  "{'train_runtime': 900.1, 'train_samples_per_second': 35.55, 'train_steps_per_second': 0.009, 'train_loss': 2.31, 'epoch': 1.0}", TPUT_READ_REGEX, 0, 0 },
	{ "lightning", "Lightning progress bar (train_loss=)", { "train_loss", NULL },
	  "^(?![^|]*(?i:load|checkpoint|shard|download|fetch|tokeni|map|filter|eval|predict|valid|sanity|test))"
	  ".*?(?<step>\\d+)/(?<total>\\d+) \\[[\\d:]+<[\\d:?]+,\\s*(?<tput>[0-9][^\\s,\\]]*?) ?(?<unit>it/s|s/it|(?:[A-Z][a-z]+ )?[a-z]{2,12}/s|s/(?:[A-Z][a-z]+ )?[a-z]{2,12})"
	  "(?:[^\\]]*?\\btrain_loss(?:_step)?=(?<loss>[^\\s,\\]]+))?",
	  NULL, 1, "Epoch 0:  45%|####5     | 450/1000 [01:02<01:16,  7.20it/s, v_num=0, train_loss=2.310]",
	  TPUT_READ_REGEX, 0, 0 },
	{ "tqdm", "tqdm (HF Trainer, Lightning)", { "it/s", "s/it", "/s,", "/s]", " batch]", NULL },
	  "^(?![^|]*(?i:load|checkpoint|shard|download|fetch|tokeni|map|filter|eval|predict|valid))"
	  ".*?(?<step>\\d+)/(?<total>\\d+) \\[[\\d:]+<[\\d:?]+,\\s*(?<tput>[0-9][^\\s,\\]]*?) ?(?<unit>it/s|s/it|(?:[A-Z][a-z]+ )?[a-z]{2,12}/s|s/(?:[A-Z][a-z]+ )?[a-z]{2,12})"
	  "(?:[^\\]]*?\\bloss=(?<loss>[^\\s,\\]]+))?",
	  NULL, 1, " 37%|###7      | 370/1000 [01:02<01:45,  5.97it/s, loss=2.1]", TPUT_READ_REGEX, 0, 0 },
	{ "deepspeed", "DeepSpeed", { "CurrSamplesPerSec=", NULL },
	  "(?:\\bglobal_step=(?<step>\\d+),.*?)?\\bCurrSamplesPerSec=(?<tput>" VAL ")",
	  "samples/s", 1,
	  "[Rank 0] time (ms) | global_step=100, RunningAvgSamplesPerSec=48.1, CurrSamplesPerSec=49.2, MemAllocated=6.1GB", TPUT_READ_REGEX, 0, 0 },
	{ "deepspeed-legacy", "DeepSpeed (before 0.7)", { ", SamplesPerSec=", NULL },
	  "\\b\\d+/(?<step>\\d+), SamplesPerSec=(?<tput>" VAL ")",
	  "samples/s", 1, "[2022-03-11 02:06:58,985] [INFO] [timer.py:189:stop] 0/40, SamplesPerSec=83.48609168106144, MemAllocated=0.26GB", TPUT_READ_REGEX, 0, 0 },
	{ "fairseq", "fairseq", { "wps=", NULL },
	  "\\bloss=(?<loss>" VAL ").*?\\bwps=(?<tput>" VAL ").*?\\bnum_updates=(?<step>\\d+)",
	  "tokens/s", 1,
	  "epoch 001:    100 / 1000 loss=9.1, nll_loss=8.9, ppl=478, wps=51234, ups=2.1, wpb=24k, bsz=64, num_updates=100, lr=1e-05, gnorm=1.2, train_wall=45, wall=50", TPUT_READ_REGEX, 0, 0 },
	{ "maxtext", "MaxText", { "Tokens/s/device: ", NULL },
	  "\\bcompleted step: (?<step>\\d+),.*?\\bTokens/s/device: (?<tput>" VAL ")"
	  "(?:.*?\\bloss: (?<loss>" VAL "))?",
	  "tokens/s/gpu", 1,
	  "completed step: 12, seconds: 1.234, TFLOP/s/device: 301.2, Tokens/s/device: 6640.1, total_weights: 65536, loss: 9.8",
	  TPUT_READ_REGEX, 1, 0 },
	{ "maxtext-v0", "MaxText (2023)", { "completed step: ", NULL },
	  "\\bcompleted step: (?<step>\\d+), seconds: [^,]*, TFLOP/s: (?<tput>" VAL ")"
	  "(?:.*?\\bloss: (?<loss>" VAL "))?",
	  "TFLOP/s/gpu", 1, "completed step: 15107, seconds: 2.167, TFLOP/s: 36.722, loss: 2.191",
	  TPUT_READ_REGEX, 1, 0 },
	{ "nemo", "NeMo 2", { "TFLOPS_per_GPU: ", NULL },
	  "\\bglobal_step: (?<step>\\d+)(?:.*?\\breduced_train_loss: (?<loss>" VAL "))?"
	  ".*?\\bTFLOPS_per_GPU: (?<tput>" VAL ")",
	  "TFLOP/s/gpu", 1,
	  "Training epoch 0, iteration 9/99 | lr: 1e-05 | global_step: 9 | reduced_train_loss: 9.1 | train_step_timing in s: 1.23 | TFLOPS_per_GPU: 1.249e+03", TPUT_READ_REGEX, 0, 0 },
	{ "nanotron", "nanotron", { "tokens_per_sec: ", NULL },
	  "\\biteration: (?<step>\\d+) / \\d+.*?\\btokens_per_sec: (?<tput>" VAL ")"
	  "(?:.*?\\blm_loss: (?<loss>" VAL "))?",
	  "tokens/s", 1,
	  "iteration: 10 / 100 | consumed_tokens: 81.9K | elapsed_time_per_iteration_ms: 4.71K | tokens_per_sec: 43.2K | tokens_per_sec_per_gpu: 5.4K | lm_loss: 10.8", TPUT_READ_REGEX, 0, 0 },
	{ "tinygrad", "tinygrad (MLPerf examples)", { " s run, ", NULL },
	  "^\\s*(?<step>\\d+) (?<tput>" VAL ") (?<unit>s) run, (?<loss>" VAL ") loss",
	  NULL, 1, "    4 4.32 s run, 11.8750 loss, 0.000000000002 LR, 1454.57 GB used, 401488.40 GFLOPS", TPUT_READ_REGEX, 0, 0 },
	{ "mmcv", "mmcv / MMEngine runner (MMDetection, MMSegmentation, ...)", { "data_time: ", NULL },
	  "(?|\\bEpoch(?:\\(train\\))?\\s*\\[\\d+\\]\\s*\\[\\s*(?<step>\\d+)/\\d+\\]|\\bIter(?:\\(train\\))?\\s*\\[\\s*(?<step>\\d+)/\\d+\\])"
	  ".*?(?<![\\w.])time: (?<tput>" VAL ")(?:.*?[\\s,]loss: (?<loss>" VAL "))?",
	  "s/step", 1,
	  "2020-05-08 18:44:23,494 - mmdet - INFO - Epoch [1][1200/7517]\tlr: 0.00125, eta: 4:44:04, time: 0.593, data_time: 0.031, memory: 6836, loss_cls: 0.1861, acc: 94.0625, loss: 0.4606",
	  TPUT_READ_REGEX, 0, 0 },
	/* torch_xla's examples (test_train_mp_imagenet.py, _mnist): Rate is the device's own
	 * samples per second, GlobalRate its average since the start */
	{ "torch-xla", "PyTorch/XLA examples (per device)", { "| Training Device=", NULL },
	  "\\| Training Device=\\S+ Epoch=\\d+ Step=(?<step>\\d+) Loss=(?<loss>\\S+) Rate=(?<tput>" VAL ")",
	  "samples/s/gpu", 1,
	  "| Training Device=xla:0/6 Epoch=1 Step=700 Loss=0.00162 Rate=554.40 GlobalRate=396.82 Time=22:01:47",
	  TPUT_READ_REGEX, 0, 0 },
	/* BigDL's DistriOptimizer: "Trained N records in T seconds" (or "Train N in Tseconds") is
	 * the iteration's time; the key/value reader adds "Throughput is V records/second" */
	{ "bigdl", "BigDL / Analytics Zoo DistriOptimizer", { "DistriOptimizer$", NULL },
	  "\\[Iteration (?<step>\\d+)\\].*? in (?<tput>[0-9.]+) ?(?<unit>seconds)\\.(?:.*? Loss is (?<loss>[^\\s]+?)\\.?(?:\\s|$))?",
	  NULL, 1,
	  "2019-03-27 19:53:35 INFO  DistriOptimizer$:395 - [Epoch 3 3360/3668][Iteration 96][Wall Clock 1317.219661367s] Trained 112 records in 13.138344759 seconds. Throughput is 8.524666 records/second. Loss is 0.08021599.",
	  TPUT_READ_REGEX, 0, 0 },
	/* darknet (YOLO v2 to v4): "N: loss, avg avg loss, lr rate, T seconds, M images", each
	 * iteration's line; T is that iteration's time (detector.c) */
	{ "darknet", "darknet (YOLO)", { " seconds, ", NULL },
	  "(?:^\\s*(?<step>\\d+): )?(?<loss>-?[0-9.]+|-?nan), \\S+ avg(?: loss)?, \\S+ rate, (?<tput>[0-9.]+) (?<unit>seconds), \\d+ images",
	  NULL, 1, " 963: 0.979543, 0.899615 avg loss, 0.002245 rate, 0.613930 seconds, 46224 images, 0.189581 hours left",
	  TPUT_READ_REGEX, 0, 1 },
	/* pytracking's ltr trainer (TransT, STARK, OSTrack, LightFC...): "FPS: avg (current)", the
	 * epoch's average first, the batch's own in parentheses (ltr/trainers/ltr_trainer.py) */
	{ "pytracking", "pytracking ltr trainer", { "] FPS: ", NULL },
	  "\\[train: \\d+, (?<step>\\d+) / \\d+\\] FPS: [0-9.]+ \\((?<tput>[0-9.]+)\\)(?:.*?Loss/total: (?<loss>[-0-9.e]+))?",
	  "samples/s", 1,
	  "[train: 120, 100 / 125] FPS: 21.5 (33.7)  ,  Loss/total: 0.42876  ,  Loss/bbox: 0.04535  ,  bbox_iou: 0.86918",
	  TPUT_READ_REGEX, 0, 0 },
	/* Frameworks the key/value reader reads: their lines named, the reading its own. The
	 * literal search reports one literal per offset, so each names its lines by a literal that
	 * starts where no other rule's does ("; acc:", not " tok/s" that llm.c's starts with). */
	{ "composer", "Composer", { "[batch=", "Train throughput/", NULL }, NULL, NULL, 1,
	  "[batch=20/50]: Train loss/train/total: 0.5505  throughput/tokens_per_sec: 155825.3348  device/tokens_per_sec: 19478.1669",
	  TPUT_READ_KV, 0, 0 },
	{ "olmo", "OLMo", { "[step=", "throughput/", NULL }, NULL, NULL, 1,
	  "    throughput/device/tokens_per_second=26,676", TPUT_READ_KV, 0, 0 },
	{ "nemo-automodel", "NeMo AutoModel (global and per GPU)", { "/gpu) | ", NULL }, NULL, NULL, 1,
	  "step 10 | epoch 0 | loss 2.1031 | grad_norm 1.2031 | lr 1.00e-05 | mem 30.12 GiB | tps 12345.67(1543.21/gpu) | num_label_tokens 4096",
	  TPUT_READ_KV, -1, 0 },
	{ "nemo2", "NeMo 2 (step timing, no TFLOPS)", { "train_step_timing", NULL }, NULL, NULL, 1,
	  "Training epoch 0, iteration 120/149 | lr: 3e-05 | global_step: 120 | reduced_train_loss: 1.233 | train_step_timing in s: 0.03146",
	  TPUT_READ_KV, 0, 0 },
	{ "fairseq-legacy", "fairseq (legacy, no num_updates)", { "| epoch ", NULL }, NULL, NULL, 1,
	  "| epoch 001:   1000 / 37483 loss=9.68 (10.49), wps=4632, wpb=3514, bsz=126, lr=0.25, clip=100%, gnorm=1.02492",
	  TPUT_READ_KV, 0, 0 },
	{ "deepspeed-flops-profiler", "DeepSpeed flops profiler (summary)",
	  { "iter latency", "FLOPS per GPU", "samples/second", NULL }, NULL, NULL, 1,
	  "FLOPS per GPU = 3 * fwd flops per GPU / iter latency:    13.63 TFLOPS", TPUT_READ_KV, 0, 0 },
	{ "tf-cnn-benchmarks", "tf_cnn_benchmarks", { "images/sec:", NULL }, NULL, NULL, 1,
	  "10  images/sec: 139.6 +/- 0.1 (jitter = 0.3)  8.137", TPUT_READ_KV, 0, 0 },
	{ "colossalai", "ColossalAI", { "Step time", "throughput=", "Tflops", NULL }, NULL, NULL, 1,
	  "[08/30/23 07:07:34] INFO     colossalai - colossalai - INFO: Step time: 22.885",
	  TPUT_READ_KV, 0, 0 },
	{ "opennmt-py", "OpenNMT-py (source and target tokens)", { "; acc:", " tok/s;", NULL }, NULL, NULL, 1,
	  "[2019-03-21 18:31:43,773 INFO] Step 2250/200000; acc:  31.18; ppl: 57.53; xent: 4.05; lr: 0.00028; 5092/261 tok/s;   6641 sec",
	  TPUT_READ_KV, 0, 0 },
	{ "gluonnlp", "GluonNLP", { "Thoughput=", "Throughput=", NULL }, NULL, NULL, 1,
	  "INFO:gluonnlp:11:22:28 Batch: 4512/7387, Loss=4.1048, lr=0.0000065 Thoughput=45.02 samples/s",
	  TPUT_READ_KV, 0, 0 },
	{ "verl", "verl (perf/throughput: tokens/s per GPU)", { "perf/throughput:", NULL }, NULL, NULL, 1,
	  "step:2 - actor/pg_loss:0.011 - perf/mfu/actor:0.32 - perf/time_per_step:44.80 - perf/throughput:2925.0 - timing_s/step:44.800",
	  TPUT_READ_KV, 1, 0 },
	{ "mlperf", "MLPerf logging (tracked_stats throughput; HPC's throughput key)", { "\"tracked_stats\"", "\"key\": \"throughput\"", NULL },
	  "\"time_ms\":\\s*(?<time>\\d+).*?\"key\":\\s*\"(?:tracked_stats\".*?\"throughput\"|throughput\",\\s*\"value\")"
	  ":\\s*(?<tput>[^\\s,}]+)(?:.*?\"(?:step|epoch_num)\":\\s*(?<step>\\d+))?",
	  "samples/s", 0.001,
	  ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1693526262178, \"event_type\": \"POINT_IN_TIME\", \"key\": \"tracked_stats\", \"value\": {\"throughput\": 2.467}, \"metadata\": {\"file\": \"train.py\", \"lineno\": 100, \"step\": 640}}",
	  TPUT_READ_REGEX, 0, 0 },
	{ "generic", "custom (any N tok/s)", { "tok/s", "tokens/s", "samples/s", "tokens per second" },
	  "(?:\\bstep[ :=]\\s*(?<step>\\d+)\\b.*?)?(?<![\\w.,/])(?<tput>nan|[0-9][0-9.,]*(?:[eE][-+]?[0-9]+)?[KMGTkmgt]?)"
	  "\\s*(?<unit>tok(?:ens)?/s(?:ec)?|tokens per second|samples/s(?:ec)?)\\b(?!:|=|\\s+[0-9])",
	  NULL, 1, "step 40 | 14.5K tok/s", TPUT_READ_REGEX, 0, 0 },
	{ "kv", "any KEY: V, KEY=V, V UNIT (OLMo, Composer, tf_cnn_benchmarks, OpenNMT-py, ...)", { NULL },
	  NULL, NULL, 1, "tokens_per_sec_per_gpu: 10,700", TPUT_READ_KV, 0, 0 },
};
const size_t tputpreset_count = sizeof tputpreset_table / sizeof tputpreset_table[0];

int tputpreset_find(const char *name)
{
	for (size_t i = 0; i < tputpreset_count; i++)
		if (strcmp(tputpreset_table[i].name, name) == 0)
			return (int)i;
	return -1;
}
