#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv) { return nq_cli_main(argc, argv, stdin, stdout, stderr); }
