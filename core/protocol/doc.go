// Package protocol is the fit of ntkrf/core/pipeline split into steps that
// hosts schedule: a WebAssembly package's workers, a command's processes,
// an Apache Beam pipeline. Each step is a value with a binary form, so a
// host forwards bytes and decides nothing; pipeline.Fit is the same
// protocol with one part, and a host of any number of workers fits the
// model Fit fits (to rounding; the same bits when it merges in row order,
// which Part's merge always does).
//
// # The steps
//
//	plan, _ := protocol.NewPlan(cfg, rows, cols, y)    // once: the settled options
//	stats := plan.NewStats(); stats.AddAt(X_i, first_i) // per part of the rows, then merged
//	if idx := plan.SearchRows(); idx != nil {           // 'auto': depth or preprocessing open
//		plan, sel, _ = plan.Select(ctx, X[idx], y[idx], stats) // or Score per worker, then Choose
//	}
//	scaler, _ := plan.Scaler(stats)                     // once
//	part, _ := plan.NewPart(scaler)                     // per part of the rows
//	part.Add(ctx, X_i, y_i, first_i)
//	part.Merge(other)                                   // or MergeBinary: any order, any tree
//	model, _ := plan.Solve(ctx, scaler, part)           // once: a *pipeline.Pipeline
//
// NewPlan settles the configuration once: the task and classes, λ's
// criterion, the feature map or exact kernel, whether the parts sum their
// rows' features (the primal) or collect the scaled rows (the dual, a
// kernel, exact leave-one-out), and which rows the held-out criterion
// keeps out. Each part of the rows adds its column statistics
// (data.Stats), which merge into the plan's Scaler. Each part then scales,
// featurizes and sums its rows (the rows the held-out criterion keeps out
// keep their features instead); parts merge in any order and any tree into
// the same bits. Solve chooses λ and assembles the model. A host with a
// second instance idle gives the solve a helper where the plan Shares
// (WithHelper at one end, ServeHelper at the other): it sums the held-out
// rows while the solver searches, and shares the Cholesky factorization.
//
// When the depth or preprocessing is left open ('auto'), NewPlan makes an
// open plan that names the rows its selection scores (SearchRows: a seeded
// sample, a function of the number of rows, the classes, the grid and the
// seed only). The host gathers those rows alone, and Select (or Score per
// worker, then Choose) settles the plan from them and the merged
// statistics of every row. No host needs every row in one place. A
// selection that screens its candidates on fewer rows first (Screen:
// successive halving) splits in two rounds, ScoreScreen per worker and
// then ScoreKept per worker with every worker's screen scores, so that
// no worker scores the whole screen; Score scores the screen itself, and
// both give Choose the same scores, bit for bit.
//
// # Binary forms
//
// A plan (MarshalBinary, DecodePlan), statistics (data.Stats.AppendBinary,
// data.DecodeStats) and a part (Part.AppendBinary, Plan.DecodePart) each
// travel as a versioned binary form (ntkrf/internal/wire: a magic, a
// version, then little-endian fields, lengths checked against the bytes
// given before anything is allocated). A host hands its workers the plan's
// bytes, not the user's options: DecodePlan makes the same plan (the same
// Digest) anywhere. A process keeps the plans it decoded last, so that a
// worker draws a plan's feature map once, and pipeline.Decode gives a
// model fitted there the map its plan drew: a map drawn from the same
// configuration for the same inputs is the same map, bit for bit.
// ChunkBytes is the size every host cuts its rows by (Plan.Chunks).
//
// # Identity
//
// Every value knows where it came from. A plan is identified by its
// Digest (the SHA-256 of its settled form). A part carries its plan's
// digest, the digest of the scaler its rows were scaled with and the
// global rows it holds (Part.Spans); statistics carry their global rows.
// The protocol refuses, with ERR_PROTOCOL and a message naming the cause:
// a part of another plan, a row added or merged twice (in parts or
// statistics), a part scaled with other statistics than the scaler solved
// with, and a solve with rows in no part. A retried shard's part is recognised by its spans; a host
// keeps one part per span.
//
// Errors follow ntkrf's error grammar (ntkrf/core/errs): every refusal is
// an *errs.Error with a code, and decoding hostile bytes never panics.
package protocol
