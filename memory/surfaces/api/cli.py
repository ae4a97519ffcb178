"""`lurker api`: serve the REST API; `lurker api key create|list|revoke`: manage its keys."""
from __future__ import annotations

import argparse
import json
import sys

from memory.errors import LurkerError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--keys-file", help="API keys file (default: LURKER_API_KEYS_FILE, or "
                                            "api-keys.json in the user data dir)")
    sub = parser.add_subparsers(dest="api_command")
    keys_file = argparse.ArgumentParser(add_help=False)  # also after `key create` etc.
    keys_file.add_argument("--keys-file", default=argparse.SUPPRESS, help="API keys file")
    key = sub.add_parser("key", help="create, list or revoke API keys")
    key_sub = key.add_subparsers(dest="key_command", required=True)
    p = key_sub.add_parser("create", parents=[keys_file],
                           help="make a key (printed once; only its hash is kept)")
    p.add_argument("--profile", action="append", required=True, dest="profiles",
                   help="a profile the key may use, or a prefix ending in '*' ('team-*'); "
                        "repeatable")
    p.add_argument("--name", help="a name for logs and revocation (default: key-N)")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--admin", action="store_true", help="may also forget, purge and "
                                                             "import --replace")
    scope.add_argument("--read-only", action="store_true", help="recall, list and export only")
    p.add_argument("--json", action="store_true")
    p = key_sub.add_parser("list", parents=[keys_file],
                           help="list keys (names, profiles, scopes; never the keys)")
    p.add_argument("--json", action="store_true")
    p = key_sub.add_parser("revoke", parents=[keys_file],
                           help="remove a key")
    p.add_argument("name")


def _keys_file(args, settings):
    from pathlib import Path

    from .keys import keys_path

    return Path(args.keys_file) if args.keys_file else keys_path(settings)


def run_api(args) -> int:
    from memory.config import Settings

    settings = Settings(**({"store": args.store} if args.store else {}))
    path = _keys_file(args, settings)
    if args.api_command == "key":
        return _key_command(args, path)
    import uvicorn

    from memory.service import MemoryService
    from .app import create_app
    from .keys import KeyFile
    from .obs import configure_logging

    configure_logging(settings.log_format)
    keys = KeyFile(path)  # refuses to start without a valid keys file
    with MemoryService.from_settings(settings) as service:
        app = create_app(service, keys, settings)
        try:
            uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False,
                        proxy_headers=True)
        finally:
            app.state.sink.close()  # stops the spool's hand-on thread (the file keeps the rest)
    return 0


def _key_command(args, path) -> int:
    from .keys import KeyStore, add_key, remove_key

    if args.key_command == "create":
        store = KeyStore.load(path) if path.exists() else KeyStore()
        taken = {k.name for k in store.keys}
        name = args.name or next(f"key-{n}" for n in range(1, len(taken) + 2)
                                 if f"key-{n}" not in taken)
        scopes = ["admin"] if args.admin else ["read"] if args.read_only else ["read", "write"]
        key = add_key(path, name, args.profiles, scopes)
        if args.json:
            print(json.dumps({"name": name, "key": key, "profiles": args.profiles,
                              "scopes": scopes, "keys_file": str(path)}))
        else:
            print(key)
            print(f"key {name!r} for {', '.join(args.profiles)} ({', '.join(scopes)}) added to "
                  f"{path}; it is shown only now", file=sys.stderr)
    elif args.key_command == "list":
        keys = KeyStore.load(path).keys
        if args.json:
            print(json.dumps({"keys": [{"name": k.name, "profiles": list(k.profiles),
                                        "scopes": sorted(k.scopes)} for k in keys]}))
        else:
            for k in keys:
                print(f"{k.name}\t{','.join(k.profiles)}\t{','.join(sorted(k.scopes))}")
    elif args.key_command == "revoke":
        remove_key(path, args.name)
        print(f"revoked {args.name!r}", file=sys.stderr)
    else:  # argparse requires one
        raise LurkerError(f"unknown key command {args.key_command!r}")
    return 0
