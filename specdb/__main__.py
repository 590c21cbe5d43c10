from specdb.cli import main

main()
