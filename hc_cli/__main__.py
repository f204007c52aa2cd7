from hc_cli.complete import main

main()
