// Package fitbeam runs the core's fit (ntkrf/core/pipeline's protocol:
// plan → statistics → parts → merge → solve) as an Apache Beam pipeline,
// so that one program fits shards of CSV or TSV files on Beam's prism
// runner on a laptop and unchanged on Dataflow, Flink or Spark.
//
// It schedules; the core decides. Every step is a core call on one shard:
//
//	shard ──Survey──▶ census ─┐ merge ─▶ Settle ─▶ schema, row keys, plan (side input)
//	shard ──ReadLabeled──▶ Stats.Add ─┐ merge ─▶ Plan.Scaler        (side input)
//	shard ──its rows among Plan.SearchRows──▶ Plan.Select ─▶ depth, preprocessing ('auto'; side input)
//	shard ──ReadLabeled──▶ Part.Add ─▶ keyed merge ─▶ merge ─▶ Plan.Solve ─▶ model file
//
// A shard is read whole in each step (shards up to data.DefaultMaxBytes
// uncompressed), so every worker accumulates one m×m sum per shard, not
// one per row; the parts are merged in two levels (by a shard key, then
// globally) so that no single worker receives every shard's sums. Rows
// are keyed by their index among all the rows, the shards taken in byte
// order of their paths, which makes the fit that of pipeline.FitDataset
// on the shards read as one file in that order: the same schema, classes,
// preprocessing, held-out rows and, to rounding, the same model.
//
// Census, Stats and Part travel between workers in the core's own binary
// forms, through coders registered here (without them Beam would encode
// only exported fields, which these types do not have).
package fitbeam
