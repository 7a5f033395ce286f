import sys

from attnkit.quiz.cli import main

sys.exit(main(sys.argv[1:]))
