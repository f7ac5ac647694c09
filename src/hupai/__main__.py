from hupai.cli import main

main()
