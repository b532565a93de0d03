/* test_tputkv: the key/value reader: a line's numbers read as columns named by the text beside them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tputkv.h"

static int close_to(double a, double b) { return fabs(a - b) < 1e-6 * (1 + fabs(b)); }
#define near(a, b) assert_true(close_to((a), (b)))

/* The key/value reader alone: layouts, units, per-device keys, counters, qualifiers. */
static void test_kv_reader(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int n;
		enum tput_unit unit;   /* of the first figure */
		double value;
		long long step;
		double loss;
	} cases[] = {
		{ "    throughput/device/tokens_per_second=26,668", 1, TPUT_TOKENS_S_GPU, 26668, -1, NAN },
		{ "    throughput/total_tokens=1,048,576", 0, 0, 0, -1, NAN },
		{ "    throughput/total_training_Gflops=5,103,640", 0, 0, 0, -1, NAN },
		{ "[batch=20/50]: Train loss/train/total: 0.5505  throughput/tokens_per_sec: 155825.3348", 1, TPUT_TOKENS_S, 155825.3348, 20, 0.5505 },
		{ "1\timages/sec: 205.3 +/- 0.0 (jitter = 0.0)\t9.111", 1, TPUT_IMAGES_S, 205.3, -1, NAN },
		{ "total images/sec: 204.75", 0, 0, 0, -1, NAN },
		{ "2017-03-28 14:51:04.380095: step 660, loss = 2.85 (729.8 examples/sec; 0.175 sec/batch)", 2, TPUT_SAMPLES_S, 729.8, 660, 2.85 },
		{ "Step 2250/200000; acc:  31.18; ppl: 57.53; xent: 4.05; lr: 0.00028; 5092/261 tok/s;   6641 sec", 2, TPUT_TOKENS_S_SRC, 5092, 2250, 4.05 },
		{ "Epoch  1, 12900/37527; acc:   4.48; ppl: 35173.75; xent:  10.47; 3599 src tok/s; 3678 tgt tok/s;   9861 s elapsed", 2, TPUT_TOKENS_S_SRC, 3599, -1, 10.47 },
		{ "step 1:    120.44 GFLOPS, loss: 10.44154", 1, TPUT_TFLOPS, 0.12044, 1, 10.44154 },
		{ "Effective Tera Flops per GPU: 45.2 and total parameters 1.3 B", 1, TPUT_TFLOPS_GPU, 45.2, -1, NAN },
		{ "FLOPS per GPU = 3 * fwd flops per GPU / iter latency:    13.63 TFLOPS", 1, TPUT_TFLOPS_GPU, 13.63, -1, NAN },
		{ "fwd FLOPS per GPU = fwd flops per GPU / fwd latency:     22.85 TFLOPS", 0, 0, 0, -1, NAN },
		{ "iter latency:     7.77 s", 1, TPUT_MS_STEP, 7770, -1, NAN },
		{ "Train Epoch: 0/100 Step: 10/965 | 2.057s/batch | lr 5.0000e-04 || Mask_Loss 1.6780", 1, TPUT_MS_STEP, 2057, 10, 1.678 },
		{ "Training epoch 0, iteration 120/149 | global_step: 120 | reduced_train_loss: 1.233 | train_step_timing in s: 0.03146 | val_loss: 4.106", 1, TPUT_MS_STEP, 31.46, 120, 1.233 },
		{ "tokens-per-second 1234", 1, TPUT_TOKENS_S, 1234, -1, NAN },
		{ "tokens_per_sec_per_gpu: 1.07e+04", 1, TPUT_TOKENS_S_GPU, 10700, -1, NAN },
		{ "global_step=794.0, consumed_samples=1.63e+6, samples/second: 12.5", 1, TPUT_SAMPLES_S, 12.5, 794, NAN },
		{ "eval_samples_per_second =      0.329", 0, 0, 0, -1, NAN },
		{ "mfu -100.00%, iter 0", 0, 0, 0, 0, NAN },
		{ "no digits here at all: tok/s samples/s", 0, 0, 0, -1, NAN },
		{ "step: 10  loss: 7.9  tps: 5,856", 1, TPUT_TPS, 5856, 10, 7.9 },
		{ "tps_per_gpu: 812.5", 1, TPUT_TOKENS_S_GPU, 812.5, -1, NAN },
		{ "step 10 | epoch 0 | loss 2.1031 | grad_norm 1.2031 | lr 1.00e-05 | mem 30.12 GiB | tps 12345.67(1543.21/gpu) | num_label_tokens 4096", 2, TPUT_TOKENS_S, 12345.67, 10, 2.1031 },
		{ "train_tps=4000 tps_per_gpu=500", 2, TPUT_TOKENS_S, 4000, -1, NAN },
		/* "time" with its unit beside a rate is the step time; alone, or without a unit, not */
		{ "Step: 4970, Loss: 0.18, Time: 1638.07 ms, TFLOPS: 43.28", 2, TPUT_MS_STEP, 1638.07, 4970, 0.18 },
		{ "Step: 4970, Time: 1.5 s, MFU: 29.1%", 2, TPUT_MS_STEP, 1500, 4970, NAN },
		/* said by its unit, no rate beside: a loose time (tputcand_loose decides) */
		{ "Step: 4970, Loss: 0.18, Time: 1638.07 ms", 1, TPUT_MS_STEP, 1638.07, 4970, 0.18 },
		{ "Time: 0.593, TFLOPS: 43.28", 1, TPUT_TFLOPS, 43.28, -1, NAN },
		{ "data_time: 5 ms, TFLOPS: 43.28", 1, TPUT_TFLOPS, 43.28, -1, NAN },
		{ "time: 12 ms, step_time: 0.5 s, TFLOPS: 43.28", 2, TPUT_MS_STEP, 500, -1, NAN },
		/* a " | " field that is a time alone, and a first field that is a count alone */
		{ "490 | loss 5.7543 | lr 4.9e-05 | 8060.78ms | mfu 0.21%", 2, TPUT_MS_STEP, 8060.78, 490, 5.7543 },
		{ "490 | loss 5.7543 | 80.5 ms", 0, 0, 0, 490, 5.7543 },
		{ "490 | took 80.5 ms | mfu 0.21%", 1, TPUT_MFU, 0.21, 490, NAN },
		/* a figure starting the line, not a count: a cut line's tail, left out */
		{ "4.5 | mfu 0.21% | 80 ms", 0, 0, 0, -1, NAN },
		{ "36.9 | hardware_tflops_per_gpu: 36.9 | grad_norm: 1.27", 0, 0, 0, -1, NAN },
		{ "epoch 4.5 | mfu 0.21% | 80 ms", 2, TPUT_MFU, 0.21, -1, NAN },
		/* a key per GPU written between the token and the second */
		{ "step: 10   train loss: 3.11   test loss: 3.05   tokens/gpu/sec: 9378.40", 1, TPUT_TOKENS_S_GPU, 9378.4, 10, 3.11 },
		{ "Batch time: 0.31(0.31)  Acc_iter 50", 1, TPUT_MS_STEP, 310, 50, NAN },
		/* a loss may be negative (a likelihood's); a rate never is */
		{ "99it [00:10,  9.03it/s, avg_epoch_loss=-43.1, epoch=0]", 1, TPUT_IT_S, 9.03, -1, -43.1 },
		{ "step 3 loss=-0.5 tokens/s=100", 1, TPUT_TOKENS_S, 100, 3, -0.5 },
		{ "step 3 loss=0.5 tokens/s=-100", 0, 0, 0, 3, 0.5 },
		/* a rate's word as the key with no ':' or '=': a figure on a line with a loss or
		 * a step (Dreamer's " / fps 1.0"), no video's setting alone */
		{ "[6000] expl_amount 0.3 / model_loss 152175.0 / value_loss 6.3 / fps 1.0", 1, TPUT_SAMPLES_S, 1.0, 6000, 152175.0 },
		{ "encoder fps 30", 0, 0, 0, -1, NAN },
		/* an average meter beside "Loss_all", the whole loss (SRT) */
		{ "-->[train]: [epoch-000-150][010/247] Time 1.11 (2.38) Data 0.16 (0.67) Forward 0.20 (1.38) Loss_all 279.1572 (11552.4368)", 1, TPUT_MS_STEP, 1110, -1, 279.1572 },
		/* a step's key with a time's unit is that step's time, beside a loss and a share
		 * (bearpaw's progress bar); with no unit it stays the step */
		{ "Epoch 10 Iter: 1 Training Net |####| (404/404) Data: 0.000s | Batch: 0.031s | Total: 0:00:12 | ETA: 0:00:01 | Loss_pi: 0.9987", 1, TPUT_MS_STEP, 31, 1, NAN },
		{ "Epoch 1 | Batch: 10 | loss 0.5 | 1200 samples/s", 1, TPUT_SAMPLES_S, 1200, 10, 0.5 },
		/* a bracketed count of the epoch's iterations shows a step's line, no step (VAR's
		 * MetricLogger, its losses "Lm" and "Lt" no loss key) */
		{ "[Ep]: [   0/200]  [ 417/1669]  eta: 0:28:12  tlr: 2e-05  Lm: 8.184 (8.184)  time: 1.3325  data: 0.4040", 1, TPUT_MS_STEP, 1332.5, -1, NAN },
		/* JSON's figures written as text: each named by the key before its quote */
		{ "[train_inner][INFO] - {\"epoch\": 1, \"loss\": \"0.264\", \"wps\": \"218.2\", \"ups\": \"6.83\", \"num_updates\": \"200\"}", 2, TPUT_TOKENS_S, 218.2, 200, 0.264 },
		{ "{'loss': '-0.03717', 'grad_norm': '0.2405', 'step_time': '82.01', 'epoch': '0.1'}", 1, TPUT_MS_STEP, 82010, -1, -0.03717 },
		/* a key of words that say a step's time and nothing else (PaddleX) */
		{ "[TRAIN] Epoch=191/300, Step=10/37, loss=4.732473, lr=0.000125, time_each_step=4.3s, eta=0:09:12", 1, TPUT_MS_STEP, 4300, 10, 4.732473 },
		/* the time of ten batches; "im/s" images (retinanet-examples) */
		{ "[15876/30000] focal loss: 0.955, box loss: 0.319, 0.312s/10-batch (fw: 0.111s, bw: 0.197s), 32.1 im/s, lr: 0.0005", 2, TPUT_MS_STEP, 31.2, -1, 0.955 },
		/* pytorch-a2c-ppo-acktr: "Updates N" is the step, "FPS" samples with no ':' */
		{ "Updates 10, num timesteps 3520, FPS 663", 1, TPUT_SAMPLES_S, 663, 10, NAN },
		/* a step written "1001k" is rounded, no step */
		{ "| Epoch: 2/3846 (520/520) | Loss: 4.2304 | 4.1 steps/s | Step: 1001k |", 1, TPUT_IT_S, 4.1, -1, 4.2304 },
		/* "epoch/iter: N/M": the key's parts name the pair's figures, the step is M */
		{ "epoch/iter: 10/2799  total_loss: 34.87  time: 0.2687  data_time: 0.0012", 1, TPUT_MS_STEP, 268.7, 2799, 34.87 },
		/* an iteration timer: "time: V" in seconds beside a loss and a share of the
		 * iteration (data_time, data, forward_time); "iter_time"/"iter time" with its unit
		 * beside a step and a loss */
		{ "eta: 8:05:12  iter: 1259  total_loss: 1.012  loss_cls: 0.714  time: 0.3322  data_time: 0.0334  lr: 0.010000  max_mem: 3961M", 1, TPUT_MS_STEP, 332.2, 1259, 1.012 },
		{ "eta: 11:21:28  iter: 1120  loss: 1.4617 (1.4511)  loss_mask: 0.4678 (0.5598)  time: 0.5088 (0.4600)  data: 0.0164 (0.0177)  lr: 0.020000  max mem: 3150", 1, TPUT_MS_STEP, 508.8, 1120, 1.4617 },
		{ "Epoch: [12]  [ 60/208]  eta: 0:00:21  lr: 0.000131  loss: 0.0739 (0.0704)  time: 0.1176  data: 0.0001  max mem: 16887", 1, TPUT_MS_STEP, 117.6, -1, 0.0739 },
		{ "epoch: 8/40, iter: 1340/1816, mem: 34235Mb, iter_time: 1.270s, data_time: 0.548s, total_loss: 98.0, lr: 9.417e-03, size: 640", 1, TPUT_MS_STEP, 1270, 1340, 98 },
		{ "Epoch 4 | iter 961 step 961 | loss train: 1.062, val: 1.057 | iter time: 529.46 ms (step)", 1, TPUT_MS_STEP, 529.46, 961, 1.062 },
		{ "17epoch:train:4501-4875batch: iter_time=0.001, forward_time=0.005, loss=1.281, backward_time=0.005, optim_step_time=1.970e-04, lr_0=0.100, train_time=0.014", 1, TPUT_MS_STEP, 14, -1, 1.281 },
		/* no share of the iteration: a loose time, a step's or a clock's (tputcand_loose) */
		{ "iter: 20  loss: 0.5  time: 0.3322", 1, TPUT_MS_STEP, 332.2, 20, 0.5 },
		/* not iteration timers: a clock, a total, a plain iter_time, no loss, an
		 * optimizer's part of the step */
		{ "iter: 20  loss: 0.5  time: 12:03:44  data_time: 0.1", 0, 0, 0, 20, 0.5 },
		{ "iter: 20  loss: 0.5  total_time: 0.33  data_time: 0.1", 0, 0, 0, 20, 0.5 },
		{ "iter_time=0.001, forward_time=0.005, loss=1.281", 0, 0, 0, -1, 1.281 },
		{ "iter 5 | iter time: 529.46 ms", 0, 0, 0, 5, NAN },
		/* a step and a share of the iteration show a step's timer, a loss or not (CycleGAN's
		 * "(epoch: 1, iters: 100, time: 0.507, data: 0.091) D_A: 0.201 ...") */
		{ "Step: 5, Time: 529.46 ms, data_time: 0.1 s", 1, TPUT_MS_STEP, 529.46, 5, NAN },
		{ "(epoch: 1, iters: 100, time: 0.507, data: 0.091) D_A: 0.201 G_A: 0.297", 1, TPUT_MS_STEP, 507, 100, NAN },
		{ "Epoch: 3, time: 0.507, data: 0.091", 0, 0, 0, -1, NAN },  /* no step, no loss */
		{ "loss=1.281, optim_step_time=1.970e-04", 0, 0, 0, -1, 1.281 },
		/* "[N] key=": a count alone in brackets is the step; a step key is surer */
		{ "logging_writer.py:35] [400] steps_per_second=1.583725, train_loss=3.2198", 1, TPUT_IT_S, 1.583725, 400, 3.2198 },
		{ "[3] step: 10  steps_per_second=1.5", 1, TPUT_IT_S, 1.5, 10, NAN },
		{ "Epoch: [12] steps_per_second=1.5", 1, TPUT_IT_S, 1.5, -1, NAN },
		/* MXNet's Speedometer: the bracketed counts are the epoch's and the batch's */
		{ "INFO Epoch[101] Batch [250]\tSpeed: 581.56 samples/sec\taccuracy=1.0", 1, TPUT_SAMPLES_S, 581.56, -1, NAN },
		{ "[400] 1.5 steps/s", 1, TPUT_IT_S, 1.5, -1, NAN },
		/* updates, steps and iterations per second in their many spellings */
		{ "Epoch[0] Batch [850]    Speed: 1233.65 samples/sec 36868.08 tokens/sec 6.31 updates/sec perplexity=1069.4", 3, TPUT_SAMPLES_S, 1233.65, -1, NAN },
		{ "step 10 / 231: loss=0.82945 f1=0.37425 [step/sec: 4.88]", 1, TPUT_IT_S, 4.88, 10, 0.82945 },
		{ "Iteration 360 (0.170469 iter/s, 58.6617s/10 iters), loss = 0.0140731", 1, TPUT_IT_S, 0.170469, 360, 0.0140731 },
		/* a step time's key without ':' or '=' when its unit is said; and "per-step time" */
		{ "[Pass 0, train batch 10]  loss 21.68535, lr 0.1, batch_cost 0.13110 sec, reader_cost 0.00069 sec, ips 976.32917 images/sec", 2, TPUT_MS_STEP, 131.1, 10, 21.68535 },
		{ "loss 21.68535, batch_cost 0.13110, ips 976.32917 images/sec", 1, TPUT_IMAGES_S, 976.32917, -1, 21.68535 },
		{ "Step 200 per-step time 0.831s loss=1.192", 1, TPUT_MS_STEP, 831, 200, 1.192 },
		{ "Step 200 elapsed time 83.1s loss=1.192", 0, 0, 0, 200, 1.192 },
		{ "Step 200 loss 1.192 time 0.831s", 0, 0, 0, 200, 1.192 },
		/* an average meter's "Time V (AVG)" beside a loss is the step time */
		{ "Epoch: [1][5760/10010]\tTime 0.427 (2.773)\tData 0.000 (2.393)\tLoss 8.4238 (10.3028)\tAcc@1 15.625 (9.299)", 1, TPUT_MS_STEP, 427, -1, 8.4238 },
		{ "Train: [14/300][250/1251]\teta 0:10:52 lr 0.000710\ttime 0.6408 (0.6516)\tloss 6.5584 (6.3074)\tmem 14764MB", 1, TPUT_MS_STEP, 640.8, -1, 6.5584 },
		{ "Test: [10/50]\tTime 0.427 (2.773)\tAcc@1 15.625 (9.299)", 0, 0, 0, -1, NAN },
		/* the meter pads its average to the value's width, fields parted by spaces */
		{ "Epoch: [0][  21/1424]   Time  1.175 ( 4.022)    Data  0.001 ( 0.722)    Loss 6.8997e+00 (6.9054e+00)", 1, TPUT_MS_STEP, 1175, -1, 6.8997 },
		{ "Epoch: [0][  21/1424]   Time  1.175 ( x)    Loss 6.8997e+00 (6.9054e+00)", 0, 0, 0, -1, 6.8997 },
		{ "Epoch: [1]\tTime 0.427\tLoss 8.4238", 0, 0, 0, -1, 8.4238 },
		/* " per GPU" after a unit; an image per device is a sample; "V +-W" a run's summary */
		{ "Iter #0: 108.3 img/sec per GPU", 1, TPUT_SAMPLES_S_GPU, 108.3, -1, NAN },
		{ "Img/sec per GPU: 108.2 +-1.2", 0, 0, 0, -1, NAN },
		{ "Total img/sec on 4 GPU(s): 432.8 +-4.9", 0, 0, 0, -1, NAN },
		{ "10 images/sec: 139.6 +/- 0.1 (jitter = 0.3)", 1, TPUT_IMAGES_S, 139.6, -1, NAN },
		{ "lr: 0.1 per GPU", 0, 0, 0, -1, NAN },
		/* a unit followed by ':' is the next figure's key */
		{ "step 10 tok/s: 5000", 1, TPUT_TOKENS_S, 5000, 10, NAN },
		/* OpenCLIP: a rate of nothing named is samples; "Batch (t)" its step time */
		{ "Train Epoch: 0 [400564224/512000000 (78%)] Data (t): 12.822 Batch (t): 14.049, 1781.07/s, 222.633/s/gpu LR: 0.000057 Loss: 0.66678 (1.6251)", 3, TPUT_MS_STEP, 14049, -1, 0.66678 },
		/* TensorFlow tensor names: the count in "features:0" is the name's; OpenNMT-tf's
		 * features and labels are the source and the target */
		{ "INFO:tensorflow:words_per_sec/features:0: 3275.1", 1, TPUT_TOKENS_S_SRC, 3275.1, -1, NAN },
		{ "INFO:tensorflow:words_per_sec/labels:0: 3610.39", 1, TPUT_TOKENS_S_TGT, 3610.39, -1, NAN },
		{ "time: 12:03:44 tok/s: 12", 1, TPUT_TOKENS_S, 12, -1, NAN },
		/* a unit as the key ("ms/batch 8.41", word_language_model's), whole or not */
		{ "| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch  8.41 | loss  7.63 | ppl  2064.78", 1, TPUT_MS_STEP, 8.41, -1, 7.63 },
		{ "| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 112 | loss  7.63", 1, TPUT_MS_STEP, 112, -1, 7.63 },
		{ "time_per_step: 12, loss: 2", 1, TPUT_MS_STEP, 12000, -1, 2 },
		/* PaddlePaddle's ips with no unit is samples; instances are samples */
		{ "epoch: [0/100], iter: 10, lr: 0.001, loss: 0.698222, reader_cost: 6.01444 s, batch_cost: 6.29982 s, samples: 5632, ips: 89.39943", 2, TPUT_MS_STEP, 6299.82, 10, 0.698222 },
		{ "epoch:[  1/1  ] train step:100  loss: 5.31382 batch_cost: 0.73082 sec, ips: 5.47330 instance/sec.", 2, TPUT_MS_STEP, 730.82, 100, 5.31382 },
		/* an evaluation's step: the line's figures are the evaluation's */
		{ "epoch:[  1/1  ] val step:0    loss: 4.42741 batch_cost: 1.37882 sec, ips: 2.90104 instance/sec.", 0, 0, 0, -1, 4.42741 },
		{ "eval_step: 3, samples/s: 12.5", 0, 0, 0, -1, NAN },
		{ "        125.61 iters/sec. Estimated time to finish: 0:02:02.799182.", 1, TPUT_IT_S, 125.61, -1, NAN },
		{ "speed: 1.51 step/s, ips: 2335 tokens/s", 2, TPUT_IT_S, 1.51, -1, NAN },
		/* "it" alone as the key of a step; a word holding it is none */
		{ "ray-training  | [1] Finished training it 16/150 of epoch 0, 439.75 ms/it, loss 0.561402, accuracy 74.972 %", 1, TPUT_MS_STEP, 439.75, 16, 0.561402 },
		{ "[1] unit 16 of epoch 0, 439.75 ms/it", 1, TPUT_MS_STEP, 439.75, 1, NAN },
		/* Marian's words, BigDL's records; a multi-word key with a spaced '=' (Acme) */
		{ "[2021-07-17 12:54:33] Ep. 1 : Up. 14000 : Sen. 965,843 : Cost 5.20174599 : Time 359.59s : 3007.81 words/s", 1, TPUT_TOKENS_S, 3007.81, -1, NAN },
		{ "Trained 112 records in 13.138344759 seconds. Thr oughput is 8.524666 records/second. Loss is 0.08021599.", 1, TPUT_SAMPLES_S, 8.524666, -1, 0.08021599 },
		{ "Learner Steps = 2 | Learner Time Elapsed = 10.830 | Steps Per Second = 94.689", 1, TPUT_IT_S, 94.689, -1, NAN },
		/* "KEY: [N/M]": the step inside the bracket (scepter) */
		{ "Stage [train] iter: [10/500], data_time: 1.0402(1.0402), time: 1.4696(1.4696), loss: 0.0978(0.0978)", 1,
		  TPUT_MS_STEP, 1469.6, 10, 0.0978 },
		/* the key is the unit: StyleGAN's seconds per thousand images */
		{ "tick 1     kimg 20.0     time 1h 19m 08s   sec/tick 4711.9  sec/kimg 235.59  maintenance 7.7", 1,
		  TPUT_IMAGES_S, 1000 / 235.59, -1, NAN },
		/* a key that is a step's time says its unit: seconds without one */
		{ "global step 6000 learning rate 0.1937 step-time 0.67 perplexity 13.56", 1, TPUT_MS_STEP, 670, 6000, NAN },
		/* the time of N steps (HugeCTR), and a step's time as a clock (llama.cpp finetune) */
		{ "Iter: 1000 Time(1000 iters): 2.104001s Loss: 0.132 lr:24.000000", 1, TPUT_MS_STEP, 2.104001, 1000, 0.132 },
		{ "step 5 time (100 steps)= 12.5 loss 3", 1, TPUT_MS_STEP, 125, 5, 3 },
		{ "Iter: 1000 Time(1000 furlongs): 2.1s", 0, 0, 0, 1000, NAN },
		{ "train_opt_callback: iter=    1 sample=9/27520 sched=0.010000 loss=8.077314 dt=00:12:57 eta=5.3d |->", 1,
		  TPUT_MS_STEP, 777000, 1, 8.077314 },
		{ "iter=2 loss=7.7 dt=00:12:5 eta=1d", 0, 0, 0, 2, 7.7 },  /* no clock */
		{ "step 3 loss 2.5 step_time: 0:00:01", 1, TPUT_MS_STEP, 1000, 3, 2.5 },  /* any step time's key */
		{ "step 3 loss 2.5 time: 12:03:44", 0, 0, 0, 3, 2.5 },  /* a clock of day: no step time */
		/* a step's time under a key of its own: nanochat's "dt"; Composer's "time/batch" is a count */
		{ "step 00004/21400 (0.02%) | loss: 8.893647 | lrm: 1.00 | dt: 989.44ms | tok/sec: 529,882", 2,
		  TPUT_MS_STEP, 989.44, 4, 8.893647 },
		{ "         Train time/batch: 4", 0, 0, 0, 4, NAN },
		{ "2/9500 (epoch 0.011), train_loss = 4.27539656, grad/param norm = 9.4067e-01, time/batch = 0.1877s", 1,
		  TPUT_MS_STEP, 187.7, -1, 4.27539656 },
		{ "step: 0/ 3305 loss:0.6661 imps:0.3 lr: 0.1000 etc:Thu Sep 19 09:26:40 2019", 1, TPUT_IMAGES_S, 0.3, 0, 0.6661 },
		/* BasicSR's iteration time, its data time in parentheses */
		{ "[epoch: 12, iter:      50, lr:(1.000e-03,)] [eta: 1 day, 23:02:06, time (data): 0.250 (0.002)] l_pix: 2.7e-02", 1,
		  TPUT_MS_STEP, 250, 50, NAN },
		/* an MFU without '%' at most 1 is a fraction (verl's), in percent */
		{ "step:2 - perf/mfu/actor:0.32 - actor/pg_loss:0.011", 1, TPUT_MFU, 32, 2, 0.011 },
		{ "step 2 mfu: 30.5 loss 2", 1, TPUT_MFU, 30.5, 2, 2 },
		/* a table's row, the key the cell before (Stable-Baselines3): fps, env steps a second */
		{ "|    fps             | 1406  |", 1, TPUT_SAMPLES_S, 1406, -1, NAN },
		/* rl_games: "fps total" is the job's rate; the other two are its parts */
		{ "fps step: 261574 fps step and policy inference: 230705 fps total: 181660 epoch: 376/500 frames: 24576000", 1, TPUT_SAMPLES_S, 181660, -1, NAN },
		{ "fps now: 261574", 0, 0, 0, -1, NAN },
		{ "SPS: 1234", 1, TPUT_IT_S, 1234, -1, NAN },  /* CleanRL: environment steps a second */
		/* the time of N steps (Trax) */
		{ "Step    200: Ran 100 train steps in 177.36 secs", 1, TPUT_MS_STEP, 1773.6, 200, NAN },
		{ "Processed 50 batches in 10.0 s", 1, TPUT_MS_STEP, 200, -1, NAN },
		{ "Ran 1 train steps in 130.79 secs", 1, TPUT_MS_STEP, 130790, -1, NAN },
		{ "Loaded 100 steps in 5 files", 0, 0, 0, -1, NAN },
		/* a tag's last part names it (Catalyst's timers, CleanRL's charts) */
		{ "0/2 * Epoch 0 (train): _base/lr=0.0010 | _timers/_fps=5694.1712 | loss=2.2828", 1, TPUT_SAMPLES_S, 5694.1712, -1, 2.2828 },
		{ "charts/SPS: 1200", 1, TPUT_IT_S, 1200, -1, NAN },
		{ "charts/SPSX: 1200", 0, 0, 0, -1, NAN },
		/* "KEY is V": 'is' parts a key and its value (MindSpore) */
		{ "epoch: 1 step: 100, loss is 2.301, 12.5 samples/s", 1, TPUT_SAMPLES_S, 12.5, 100, 2.301 },
		{ "this is 5 tok/s", 1, TPUT_TOKENS_S, 5, -1, NAN },
		/* HiFi-GAN's seconds a batch; a time/step key with a fraction (CLIP4Clip); fps: */
		{ "Steps : 210015, Gen Loss Total : 25.515, Mel-Spec. Error : 0.409, s/b : 1.128", 1, TPUT_MS_STEP, 1128, -1, NAN },
		{ "Epoch: 2/5, Step: 18/156, Loss: 0.040721, Time/step: 0.755016", 1, TPUT_MS_STEP, 755.016, 18, 0.040721 },
		{ "update: 20\tfps: 33.568\t", 1, TPUT_SAMPLES_S, 33.568, -1, NAN },
		/* units in brackets (TransReID) */
		{ "Epoch 1 done. Time per batch: 0.192[s] Speed: 333.8[samples/s]", 2, TPUT_MS_STEP, 192, -1, NAN },
		{ "loss 0.5 [tensor]", 0, 0, 0, -1, 0.5 },
		{ "train | step 100 | loss 2.3 | tok/s/dev 4,321", 1, TPUT_TOKENS_S_GPU, 4321, 100, 2.3 },
		/* a plain "Time V" between tabs, beside a rate and a loss: loose */
		{ "Epoch: [0][691/1000]\tTime 0.558\t Images/sec 179\t Loss 9.532\tRegLoss 1.011\tlr 0.1000", 2, TPUT_MS_STEP, 558, -1, 9.532 },
		{ "[100] img/sec/core=123.4, loss=3.2", 1, TPUT_SAMPLES_S_GPU, 123.4, 100, 3.2 },  /* a TPU core's */
		/* a whole key with its unit in parentheses */
		{ "Epoch  1 | Batch 100/972 | Time/Batch(ms) 691.84 | Train Loss 0.7241", 1, TPUT_MS_STEP, 691.84, 100, 0.7241 },
		{ "step 5 | step_time(s) 0.5 | loss 2", 1, TPUT_MS_STEP, 500, 5, 2 },
		/* a loose time beside a step and a loss (the series stage decides: tputcand_loose) */
		{ "Epoch: [460/484] Iter:[100/247], Time: 0.95, lr: [0.00065], Loss: 0.126229", 1, TPUT_MS_STEP, 950, 100, 0.126229 },
		{ "iter 10010 || Loss: 3.6592 || timer: 0.2051 sec.", 1, TPUT_MS_STEP, 205.1, 10010, 3.6592 },
		{ "Epoch: 3, Time: 0.95, Loss: 0.126229", 0, 0, 0, -1, 0.126229 },
		{ "step:400 loss:2.215 lr:1.0e-05 updt_s:0.504 data_s:0.083", 1, TPUT_MS_STEP, 504, 400, 2.215 },
		/* "KEY V KEY V": a rate's word after a loss or a step is the next figure's key */
		{ "train: epoch 1 step 100 loss 2.3 tokens/s 123456 lr 1e-4", 1, TPUT_TOKENS_S, 123456, 100, 2.3 },
		{ "step 100 tokens/s 5000", 1, TPUT_TOKENS_S, 5000, 100, NAN },
		{ "tput 5123 tok/s 12.3 ms/step", 2, TPUT_TOKENS_S, 5123, -1, NAN },
		{ "eps: 1234", 0, 0, 0, -1, NAN },
		/* a key saying "speed" before a rate of items no table names (NCRF++'s sentences) */
		{ "Epoch: 2 training finished. Time: 74.41s, speed: 188.71st/s,  total loss: 214107.86", 1, TPUT_SAMPLES_S, 188.71, -1, 214107.86 },
		{ "io: 0.02 s ( 608.51 MB/sec ) speed: 608.51 MB/s", 0, 0, 0, -1, NAN },
		{ "Epoch   1, Step:      100, Batch Loss:    53.850666, Tokens per Sec:     3478, Lr: 0.001000", 1, TPUT_TOKENS_S, 3478, 100, 53.850666 },
		/* DCGAN's timer: "Time:" beside its data time's share and a GAN's two losses */
		{ "Epoch: [2][      49 /      237]\t Time: 0.324  DataTime: 0.000    Err_G: 1.8233  Err_D: 0.4006\t", 1, TPUT_MS_STEP, 324, -1, 1.8233 },
		{ "[1/25][10/782] Loss_D: 0.4135 Loss_G: 2.9 Time: 0.31 DataTime: 0.01", 1, TPUT_MS_STEP, 310, -1, 0.4135 },
		{ "Epoch: [2] Time: 0.324  Err_G: 1.8233", 0, 0, 0, -1, 1.8233 },
		{ "Epoch: [2] Time: 0.324  DataTime: 0.000  Err: 1.8", 0, 0, 0, -1, NAN },
		{ "| step 100 | loss 3.2 | 8060.78ms |", 0, 0, 0, 100, 3.2 },  /* a cell of two words: no key */
		/* a time alone in parentheses at the record's end, beside a loss: loose (I-JEPA) */
		{ "INFO:root:[15,   100/  476] train_loss: 5.633 [wd: 1.15e-01] (615.1 ms)", 1, TPUT_MS_STEP, 615.1, -1, 5.633 },
		{ "INFO:root:[15,   100/  476] train_acc: 5.633 (615.1 ms)", 0, 0, 0, -1, NAN },  /* no loss */
		{ "INFO:root:[15,   100/  476] train_loss: 5.633 (615.1 ms) done", 0, 0, 0, -1, 5.633 },  /* not the end */
		{ "INFO:root:[15,   100/  476] train_loss: 5.633 (615.1 MB)", 0, 0, 0, -1, 5.633 },  /* no time */
		/* a rate of items no table names, alone in parentheses at the end: on a line with a
		 * step or a loss (Leela Zero's positions) */
		{ "step 577000, policy=1.71688 mse=0.192603 total=2.58732 (236.009 pos/s)", 1, TPUT_SAMPLES_S, 236.009, 577000, NAN },
		{ "policy=1.71688 reg=0.100024 (236.009 pos/s)", 0, 0, 0, -1, NAN },
		{ "step 577000, total=2.58732 (236.009 MB/s)", 0, 0, 0, 577000, NAN },
		/* a step time's key in one word; pictures are images; an elapsed time is a clock's
		 * unless it says per what */
		{ "Epoch:1/250 || Epochiter: 2/403 || Iter: 2/100750 || Loc: 4.33 || Batchtime: 0.2298 s || ETA: 6:25:50", 1, TPUT_MS_STEP, 229.8, 2, NAN },
		{ "INFO:tensorflow:iter #10200: lr = 1e-05 | loss = 0.9141 | speed = 72.74 pics / sec", 1, TPUT_IMAGES_S, 72.74, -1, 0.9141 },
		{ "Elapsed seconds: 0.678 s", 0, 0, 0, -1, NAN },
		{ "elapsed time per iteration (ms): 123.4", 1, TPUT_MS_STEP, 123.4, -1, NAN },
		/* "| Time V |", a field of its own beside a step and a loss: loose */
		{ "Epoch 00000 | Step 00020 | Loss 1.9194 | Train Acc 0.5801 | Time 0.9820 | GPU 0.0 MB", 1, TPUT_MS_STEP, 982, 20, 1.9194 },
		{ "Epoch 00000 | Step 00020 | Loss 1.9194 | Time 0.9820 sleeping | GPU 0.0 MB", 0, 0, 0, 20, 1.9194 },
		/* a plain iteration time beside a step and a loss (DINOv2's JSON) */
		{ "{\"iteration\": 120, \"iter_time\": 3.607, \"data_time\": 0.935, \"total_loss\": 14.645}", 1, TPUT_MS_STEP, 3607, 120, 14.645 },
		{ "{\"iter_time\": 3.607, \"data_time\": 0.935, \"total_loss\": 14.645}", 0, 0, 0, -1, 14.645 },
		/* a batch's time as a meter, its step's key before a fraction and its average; the
		 * mean time of an iteration under GraphGym's key */
		{ "Train: [1/100][65/510] Data 0.002 (0.656) Batch 7.276 (3.305) Remain 46:45:29 loss: 0.8294 Lr: 0.09989", 1, TPUT_MS_STEP, 7276, -1, 0.8294 },
		{ "Train: [1/100][65/510] Data 0.002 (0.656) Batch 7 (3) loss: 0.8294", 0, 0, 0, 7, 0.8294 },
		{ "train: {'epoch': 1940, 'time_epoch': 23.26, 'loss': 0.01499, 'time_iter': 0.07432, 'mae': 0.01499}", 1, TPUT_MS_STEP, 74.32, -1, 0.01499 },
		/* a figure's parts in parentheses glued before its unit; "itr" is an iteration */
		{ "Epoch 0/7 itr 26/3489: lr: 0.0001 speed: 0.72(0.65s r0.07)s/itr 0.70h/epoch loss_pose: 0.3386", 1, TPUT_MS_STEP, 720, -1, NAN },
		/* a unit of two words and "per"; not the next figure's key, nor a latency per token */
		{ "25 0.7959675598144531 secs per iter", 1, TPUT_MS_STEP, 795.9675598144531, -1, NAN },
		{ "step 10 | loss 2.1 | 5120 tokens per second", 1, TPUT_TOKENS_S, 5120, 10, 2.1 },
		{ "step 10 | loss 2.1 | 5120 samples per second", 1, TPUT_SAMPLES_S, 5120, 10, 2.1 },
		{ "Epoch Step: 1 Loss: 3.023465 Tokens per Sec: 403.074173", 1, TPUT_TOKENS_S, 403.074173, 1, 3.023465 },
		{ "llama_print_timings: eval time = 10.5 ms / 17 runs ( 0.62 ms per token, 1612.90 tokens per second)", 0, 0, 0, -1, NAN },
		/* an evaluation's step is a count: Keras's "val_loss_batch: 7.6509" is a loss */
		{ "900/900 [====] - 172s 181ms/step - loss: 7.9477 - val_loss: 7.83 - val_loss_batch: 7.6509", 1, TPUT_MS_STEP, 181, -1, 7.9477 },
		/* a source file's line is no figure; a number of things is a count, no rate */
		{ "[INFO]][mfu_callback.py:81] MFU number of devices: 1", 0, 0, 0, -1, NAN },
		{ "[INFO]][callbacks.py:79] Number of model parameters for MFU: 973,146,112", 0, 0, 0, -1, NAN },
		{ "step 5 | loss 2.1 | mfu 114.07%", 1, TPUT_MFU, 114.07, 5, 2.1 },
		/* a rate's word and figure in a " | " field of their own: a record's, no step or loss
		 * needed (rl-starter-files' abbreviated keys); loose elsewhere */
		{ "U 1 | F 002048 | FPS 0158 | D 12 | H 1.086 | pL 0.571", 1, TPUT_SAMPLES_S, 158, -1, NAN },
		{ "U 1, FPS 0158, D 12", 0, 0, 0, -1, NAN },
		/* a stopwatch's reading, the line's one figure: loose, with no step or loss beside it
		 * (YOLACT's abbreviated losses, DSFD's "Timer:" line above its step's); a plain
		 * "time" stays a clock's or an epoch's, and a timer beside other figures needs them */
		{ "[  0]      40 || B: 6.237 | C: 5.683 || ETA: 2 days, 17:24:02 || Timer: 0.288", 1, TPUT_MS_STEP, 288, -1, NAN },
		{ "Timer: 0.6820", 1, TPUT_MS_STEP, 682, -1, NAN },
		{ "Epoch 3 time: 45.2", 0, 0, 0, -1, NAN },
		{ "forward_timer: 0.5", 0, 0, 0, -1, NAN },
		{ "Timer: 1.5 | 512 samples/s", 1, TPUT_SAMPLES_S, 512, -1, NAN },
		/* a batch's time under an abbreviated key (VISSL, wav2letter, SupContrast's meter) */
		{ "Rank: 0; [ep: 1] iter: 5; lr: 8e-05; loss: 4.80023; btime(ms): 1518; eta: 0:00:07;", 1, TPUT_MS_STEP, 1518, 5, 4.80023 },
		{ "epoch: 2 | lr: 0.1 | runtime: 00:08:11 | bch(ms): 68.87 | smp(ms): 0.33 | fwd(ms): 51.78", 1, TPUT_MS_STEP, 68.87, -1, NAN },
		{ "Train: [1][40/196]\tBT 0.430 (0.587)\tDT 0.000 (0.024)\tloss 8.909 (8.913)", 1, TPUT_MS_STEP, 430, -1, 8.909 },
		{ "DEBT 0.430 (0.587)", 0, 0, 0, -1, NAN },
		/* H2O's scoring history: observations a second in a table's cell */
		{ "| 47180 obs/sec |", 1, TPUT_SAMPLES_S, 47180, -1, NAN },
		/* items of other kinds are samples; a rate "assumed" is a setting, and frames none */
		{ "step 10 loss 0.5 | 14510000 rays/sec", 1, TPUT_SAMPLES_S, 14510000, 10, 0.5 },
		{ "Time taken 773.461s: real-time factor assuming 100 frames/sec is 2.62039", 0, 0, 0, -1, NAN },
		/* "FPS:" in a field of its own (RLLTE's abbreviated keys); a loss's part by its letter
		 * (torchreid's "loss_t"); a span of hours under a step time's key is none */
		{ "[TRAIN] - S: 1000        | E: 1           | L: 1000        | R: 0.000       | FPS: 367.456   | T: 0:00:02", 1, TPUT_SAMPLES_S, 367.456, -1, NAN },
		{ "epoch: [1/125][20/176]\ttime 0.148 (0.313)\tdata 0.000 (0.092)\teta 1:54:45\tloss_t 5.6625 (6.1717)\tloss_x 6.6618 (6.6707)", 1, TPUT_MS_STEP, 148, -1, 5.6625 },
		{ "[GapAware] index=361 -> file_id=0, time_idx=366 | input=2006-04-04T18:00:00, dt=6.0h", 0, 0, 0, -1, NAN },
		/* a fraction under "batch:" beside the iteration's shares is its time (VIBE's bar);
		 * a metric named after a step ("train_loss_step=") is none */
		{ "(500/500) | Total: 0:00:46 | ETA: 0:00:01 | loss: 2.9353 | data: 0.01 | forward: 0.02 | batch: 0.09", 1, TPUT_MS_STEP, 90, -1, 2.9353 },
		{ "Epoch 13: 10/10 [00:10<00:00, loss=-5.4e+05, train_loss_step=-5.72e+5, data: 0.5", 0, 0, 0, -1, -5.4e+05 },
		/* Julia's ProgressMeter */
		{ "[100.00%, 600/600, 00:35/00:35, 17.36i/s]", 1, TPUT_IT_S, 17.36, -1, NAN },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tputkv_figure kv[8];
		struct tputkv_line info;
		size_t n = tputkv_read(cases[i].line, strlen(cases[i].line), kv, 8, &info, NULL);
		assert_int_equal(n, cases[i].n);
		if (n > 0) {
			assert_int_equal(kv[0].unit, cases[i].unit);
			near(kv[0].value, cases[i].value);
		}
		assert_true(info.step == cases[i].step);
		/* the loose times among the cases: a time beside a step and a loss, a stopwatch's reading alone */
		size_t ll = strlen(cases[i].line);
		int is_loose = strstr(cases[i].line, "Iter:[100/247]") || strstr(cases[i].line, "timer:") || strstr(cases[i].line, "Timer: 0.") ||
			       strstr(cases[i].line, "Time 0.558") || strstr(cases[i].line, "(615.1 ms)") ||
			       strstr(cases[i].line, "| Time 0.9820 |") ||
			       (ll > 16 && strcmp(cases[i].line + ll - 16, "Time: 1638.07 ms") == 0) ||
			       (ll > 12 && strcmp(cases[i].line + ll - 12, "time: 0.3322") == 0);
		if (n > 0 && is_loose)
			assert_true(kv[0].loose);
		else if (n > 0)
			assert_false(kv[0].loose);
		if (isnan(cases[i].loss))
			assert_true(isnan(info.loss));
		else
			near(info.loss, cases[i].loss);
	}
	struct tputkv_figure kv[8];
	struct tputkv_line info;
	const char *line = "Avg prompt throughput: 1254.4 tokens/s, Avg generation throughput: 29.2 tokens/s";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 0);
	assert_true(info.inference);
	line = "epoch=0/micro_step=40/global_step=10, RunningAvgSamplesPerSec=25.02, CurrSamplesPerSec=25.70";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 2);
	assert_true(kv[0].average && !kv[1].average);
	assert_true(info.step == 10);
	/* the second figure of each line: the target's, the per-device one */
	line = "lr: 0.00028; 5092/261 tok/s;   6641 sec";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 2);
	assert_int_equal(kv[1].unit, TPUT_TOKENS_S_TGT);
	near(kv[1].value, 261);
	line = "xent:  10.47; 3599 src tok/s; 3678 tgt tok/s;   9861 s elapsed";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 2);
	assert_int_equal(kv[1].unit, TPUT_TOKENS_S_TGT);
	near(kv[1].value, 3678);
	/* a latency per token: generation's timings, the whole line inference's */
	line = "llama_print_timings:      sample time =   301.80 ms /   512 runs   (    0.59 ms per token,  1696.48 tokens per second)";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 0);
	assert_int_equal(info.inference, 2);
	line = "decode 12.5 ms/token, 80.0 tok/s";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 0);
	assert_int_equal(info.inference, 2);
	line = "step 3 | 512.3 ms | 1000 tok/s | per token 0.5";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 2);
	assert_int_equal(info.inference, 0);
	line = "mem 30.12 GiB | tps 12345.67(1543.21/gpu) | num_label_tokens 4096";
	assert_int_equal(tputkv_read(line, strlen(line), kv, 8, &info, NULL), 2);
	assert_int_equal(kv[1].unit, TPUT_TOKENS_S_GPU);
	near(kv[1].value, 1543.21);
}

/* A line of a shape seen before (the same bytes but digits) is read from the cache: the
 * values are its own, and a value that decides (a step must be whole, a rate to invert not
 * zero) is looked at again. */
static void test_kv_reader_cache(void **state)
{
	(void)state;
	tputkv_cache *cache = tputkv_cache_new();
	struct tputkv_figure kv[8];
	struct tputkv_line info;
	const char *first = "step: 12  loss: 2.25  tps: 4,321  mfu: 30.5%";
	const char *same = "step: 13  loss: 2.75  tps: 5,009  mfu: 31.0%";
	assert_int_equal(tputkv_read(first, strlen(first), kv, 8, &info, cache), 2);
	assert_int_equal(tputkv_read(same, strlen(same), kv, 8, &info, cache), 2);
	assert_true(info.step == 13);
	assert_true(info.loss == 2.75);
	assert_int_equal(kv[0].unit, TPUT_TPS);
	assert_true(kv[0].value == 5009);
	assert_int_equal(kv[1].unit, TPUT_MFU);
	assert_true(kv[1].value == 31.0);
	/* a step that is no whole number is no step; a rate of zero seconds per step is none */
	first = "iter 7 | 0.50 s/it | step 4";
	same = "iter 8 | 0.00 s/it | step 5.5";
	assert_int_equal(tputkv_read(first, strlen(first), kv, 8, &info, cache), 1);
	assert_true(kv[0].value == 2 && info.step == 7);
	assert_int_equal(tputkv_read(same, strlen(same), kv, 8, &info, cache), 0);
	assert_true(info.step == 8);
	tputkv_cache_free(cache);
}

/* The reader's literals: every one of the list, as many as it names. */
static void test_literals(void **state)
{
	(void)state;
	size_t n = 0;
	while (tputkv_literals[n])
		n++;
	assert_int_equal(n, 87);
	assert_string_equal(tputkv_literals[0], "k/s");
	assert_string_equal(tputkv_literals[86], "FPS:");
}

/* A shape read once is given back for a line of that shape, and read from it again. */
static void test_known_shape(void **state)
{
	(void)state;
	tputkv_cache *cache = tputkv_cache_new();
	struct tputkv_figure kv[8];
	struct tputkv_line info;
	struct tputkv_shape *shape = NULL, *again = NULL;
	char a[] = "step: 12  loss: 2.25  tps: 4,321";
	char b[] = "step: 19  loss: 1.50  tps: 9,876";
	assert_int_equal(tputkv_read_shape(cache, a, strlen(a), kv, 8, &info, NULL, &shape), 1);
	assert_non_null(shape);
	assert_int_equal(shape->len, strlen(a));
	assert_int_equal(shape->ncand, 3);
	assert_int_equal(tputkv_read_shape(cache, b, strlen(b), kv, 8, &info, shape, &again), 1);
	assert_ptr_equal(again, shape);
	assert_true(kv[0].value == 9876 && info.step == 19 && info.loss == 1.5);
	struct tputctx_words words;
	tputctx_init(&words);
	assert_int_equal(tputkv_context(&words, shape, b, strlen(b)), TPUT_CTX_TRAIN);
	assert_int_equal(shape->context, TPUT_CTX_TRAIN);  /* kept for the shape */
	tputkv_cache_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_reader),
		cmocka_unit_test(test_kv_reader_cache),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_known_shape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
