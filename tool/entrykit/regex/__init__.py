"""Everything entrykit does with an entry's regex: parse, run under a budget, analyse, suggest, look up."""
