"""What the forget-path tests share (issue 12: forget means the bot stops saying it, on every
path): a statement whose text must not come back once forgotten or deleted."""

HOST = "db-stage-7.internal"
STATEMENT = f"The staging database host is {HOST} since the migration."
QUESTION = "what is the staging database host?"
