// Package fitbeam runs the core's fit (ntkrf/core/protocol:
// plan → statistics → parts → merge → solve) as an Apache Beam pipeline,
// so that one program fits shards of CSV or TSV files on Beam's prism
// runner on a laptop and unchanged on Dataflow, Flink or Spark.
//
// It schedules; the core decides. Every step is a core call on one shard:
//
//	shard ──Survey──▶ census ─┐ merge ─▶ Settle ─▶ schema, row keys, plan (side input of cheap steps)
//	shard + schema ──ReadLabeled──▶ Stats.Add ─┐ merge ─▶ statistics
//	    └──its rows among Plan.SearchRows──▶ Plan.Select ─▶ depth, preprocessing ('auto'), in the schema's element
//	shard + schema + statistics ──ReadLabeled──▶ Part.Add ─▶ by key ─▶ merge ─▶ merge + Plan.Solve ─▶ model file
//
// A shard is read whole in each step (shards up to data.DefaultMaxBytes
// uncompressed), so every worker accumulates one m×m sum per bundle and
// merge key, not one per row; the parts are merged in two levels (by a
// key of the shard, ⌊√shards⌋ keys by default, then on the worker that
// solves) so that no single worker receives every shard's sums. Rows
// are keyed by their index among all the rows, the shards taken in byte
// order of their paths, which makes the fit that of pipeline.FitDataset
// on the shards read as one file in that order: the same schema, classes,
// preprocessing, held-out rows and, to rounding, the same model.
//
// The steps that take time read no side input and all have an output
// (Fit says why: prism's scheduler polls without pause otherwise); the
// schema and statistics travel with each shard (Shard). Census, Stats and
// Shard travel in the core's own binary forms, through coders registered
// here (without them Beam would encode only exported fields, which these
// types do not have); parts travel as bytes, their form (parts.go), and
// are merged from those bytes in place.
package fitbeam
