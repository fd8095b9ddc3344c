import ArgumentParser; import DemoService; print(1)
