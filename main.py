from posenc_gui.app import main

raise SystemExit(main())
