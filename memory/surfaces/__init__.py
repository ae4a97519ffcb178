"""The entry points, on top of everything else: the `lurker` command (cli.py, which wires in
chat.py, worker.py, migrate.py and the eval harness's command), the REST API (api/) and the MCP
server (mcp_server.py). Nothing below imports them (tests/test_layers.py)."""
