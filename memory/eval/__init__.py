"""Evaluation harnesses: `lurker eval locomo` (memory.eval.locomo) measures retrieval recall and
answer quality on the LoCoMo long-conversation benchmark; memory.eval.metrics holds the scoring."""
