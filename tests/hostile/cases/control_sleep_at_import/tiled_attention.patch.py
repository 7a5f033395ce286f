import time

time.sleep(3600)
