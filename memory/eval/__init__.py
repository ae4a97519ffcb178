"""Evaluation harnesses: `lurker eval locomo` and `lurker eval beam` (memory.eval.locomo) measure
retrieval recall at budgets of turns and characters, and answer quality, on LoCoMo and on BEAM in
LoCoMo's shape; memory.eval.baselines holds the raw-turn baselines, memory.eval.metrics the scoring."""
