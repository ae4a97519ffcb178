"""Slack and Discord adapters (issue: chat lurkers)."""
