import sys

from tools.searchmodel.train import main

sys.exit(main(sys.argv[1:]))
