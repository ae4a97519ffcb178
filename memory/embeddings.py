"""PLACEHOLDER: replaced by the embeddings work (numpy MiniLM forward pass)."""
