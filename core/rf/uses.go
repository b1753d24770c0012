package rf

// UsedOptions are the options of Config, by their JSON names, that Uses
// speaks of: those a host offers beside the method, which not every
// method reads.
var UsedOptions = []string{"depth", "sketch", "sampler", "gamma"}

// Uses names, for each method, which of UsedOptions change its features;
// it ignores the others. Hosts offer (or grey out) their controls by it
// instead of restating the rule (the lab; jsbridge's schema carries it).
// TestUses ties it to the features drawn.
var Uses = map[string][]string{
	"ntk":     {"depth", "sketch", "sampler"},
	"nngp":    {"depth", "sampler"},
	"arccos0": {"sampler"},
	"arccos1": {"sampler"},
	"naive":   {"depth", "sampler"},
	"grad":    {"depth"},
	"rff":     {"gamma"},
}
