file(REMOVE_RECURSE
  "libnqueens_internal.a"
)
