from attnkit.cli import entry

entry()
