from hc_cli.cli import main

main()
