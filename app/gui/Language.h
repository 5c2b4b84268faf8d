// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface language: the system locale by default, or English / Simplified Chinese chosen in the menu.
// Installing a language sends LanguageChange to every widget, which retranslates itself.

#include <QObject>
#include <QTranslator>

namespace specdec::gui {

class Language : public QObject
{
    Q_OBJECT
public:
    explicit Language(QObject *parent = nullptr);

    /// "" = follow the system, "en", "zh_CN".
    void set(const QString &code);
    QString current() const { return m_code; }

private:
    QTranslator m_app;
    QTranslator m_qt;
    QString m_code;
};

} // namespace specdec::gui
