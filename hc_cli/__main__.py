from hc_cli.cli.main import main

main()
