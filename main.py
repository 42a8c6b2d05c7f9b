from posenc_gui.cli import main

raise SystemExit(main())
