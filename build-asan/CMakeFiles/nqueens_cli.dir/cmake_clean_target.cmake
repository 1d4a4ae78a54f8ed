file(REMOVE_RECURSE
  "libnqueens_cli.a"
)
